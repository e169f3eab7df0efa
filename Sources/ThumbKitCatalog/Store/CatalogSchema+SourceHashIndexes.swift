// SPDX-License-Identifier: Apache-2.0
extension CatalogSchema {
    /// Version 8: indexes on the records' image hashes, so a build of one record can ask whether
    /// a file with other hard links is some record's source by its content
    /// (`CatalogTransaction.isRecordImage(sha256:)`) without reading every record. Such files are
    /// common: `thumbkit site` links the outputs it publishes, and a build of one record (`catalog
    /// rename`, `set-image`, the watch folder) used to keep every replaced output that had a
    /// second link, beside the new ones, until the next full build.
    static let migration8 = """
        CREATE INDEX bugs_image_sha256 ON bugs(image_sha256);
        CREATE INDEX foods_image_sha256 ON foods(image_sha256);
        """

    /// Version 8 on PostgreSQL: the same indexes.
    static let postgresMigration8 = migration8
}
