// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 12: the planning passes' turns (`PlanningTurn`), one row: `started` numbers the
    /// passes begun and `started_at` says when the last one began (ms since 1970, the planner's
    /// clock, as leases are); `finished` is the number of the last pass that ended,
    /// `finished_started_at` when that one began, `identity` what it planned (recipes and
    /// output folder) and `refused` whether it refused the folder. Builds started together let
    /// the first pass plan for all, rather than each reading every record and checking every
    /// output file again.
    static let migration12 = """
        CREATE TABLE build_planning (
            id                  INTEGER PRIMARY KEY CHECK (id = 1),
            started             INTEGER NOT NULL CHECK (started >= 0),
            started_at          INTEGER NOT NULL,
            finished            INTEGER NOT NULL CHECK (finished >= 0),
            finished_started_at INTEGER NOT NULL,
            identity            TEXT,
            refused             INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO build_planning (id, started, started_at, finished, finished_started_at) VALUES (1, 0, 0, 0, 0);
        """

    /// Version 12 on PostgreSQL: the same table.
    static let postgresMigration12 = """
        CREATE TABLE build_planning (
            id                  BIGINT PRIMARY KEY CHECK (id = 1),
            started             BIGINT NOT NULL CHECK (started >= 0),
            started_at          BIGINT NOT NULL,
            finished            BIGINT NOT NULL CHECK (finished >= 0),
            finished_started_at BIGINT NOT NULL,
            identity            TEXT COLLATE "C",
            refused             BIGINT NOT NULL DEFAULT 0
        );
        INSERT INTO build_planning (id, started, started_at, finished, finished_started_at) VALUES (1, 0, 0, 0, 0);
        """
}
