// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 6: indexes on the records' image paths, so a build of one record can ask whether
    /// a file it would replace or remove is some record's source
    /// (`CatalogTransaction.isRecordImage(anyOf:)`) without reading every record. Every other
    /// lookup a one-record build or a watch-folder ingest makes already has a key or index
    /// (primary keys, `bugs.title`, `categories.name`, `foods (category_id, name)`, `outputs
    /// (record_kind, record_id, recipe, scale)`, `outputs_path`, `ingested_files (path, sha256)`).
    static let migration6 = """
        CREATE INDEX bugs_image_path ON bugs(image_path);
        CREATE INDEX foods_image_path ON foods(image_path);
        """

    /// Version 6 on PostgreSQL: the same indexes.
    static let postgresMigration6 = migration6
}
