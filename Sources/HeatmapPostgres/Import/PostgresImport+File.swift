import HeatmapKit

/// Why an import from a file failed: the file (its path, line and column) or the database.
package enum PostgresImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read, or a row of it is invalid (and not skipped).
    case data(PointFileError)
    /// The database refused or could not be reached.
    case database(PostgresError)

    /// The file's or the database's message.
    package var description: String {
        switch self {
        case .data(let error): return error.description
        case .database(let error): return error.description
        }
    }
}

extension PostgresImport {
    /// Loads the points of the file at `path` (any format the readers read, with the same
    /// options and errors) into `table`, with the time and category columns `options` name
    /// (see ``ImportedFields``), streaming: a chunk of `chunkSize` points is read,
    /// encoded and sent by `COPY`, then the next, so that memory stays bounded whatever the
    /// file's size. All or nothing: one transaction, committed after the last row; an invalid
    /// row anywhere (unless `options.skipInvalid`), a read error or a refused row rolls it
    /// back, leaving the table as it was. The database is first reached once the first chunk
    /// is read, so a file that cannot be read fails without touching it.
    ///
    /// `progress` hears the rows sent so far after each chunk.
    ///
    /// - Throws: ``PostgresImportError/data(_:)`` naming the file, line and column, or
    ///   ``PostgresImportError/database(_:)``.
    package static func run(
        path: String, options: PointReadOptions = .init(), into table: String, connection conninfo: ConnectionString,
        mode: Mode, timeSummaries: Bool = false, chunkSize: Int = 1 << 15, progress: ((_ sent: Int) -> Void)? = nil
    ) throws(PostgresImportError) -> (summary: Summary, report: PointFileReport) {
        var importer: PostgresImporter?
        var failure: PostgresError?
        let report: PointFileReport
        do {
            report = try PointFileReader.readPoints(path: path, options: options, chunkSize: chunkSize) {
                (chunk, values) throws(PointFileError) in
                do throws(PostgresError) {
                    if importer == nil {
                        importer = try PostgresImporter(
                            table: table, connection: conninfo, mode: mode,
                            fields: ImportedFields(options, timeSummaries: timeSummaries))
                    }
                    try importer?.append(chunk, values: values)
                    progress?(importer?.rowsSent ?? 0)
                } catch {
                    failure = error
                    // Stops the read; the database's error is the one thrown below.
                    throw PointFileError(path: path, reason: "import stopped: \(error)")
                }
            }
        } catch {
            importer?.cancel(reason: "import stopped: \(error.description)")
            throw failure.map(PostgresImportError.database) ?? .data(error)
        }
        guard let importer else {
            throw .data(PointFileError(path: path, reason: "holds no points"))
        }
        do {
            return (try importer.finish(), report)
        } catch {
            throw .database(error)
        }
    }
}
