import Foundation

extension TileArchiveError {
    /// Fails, naming the folder, when the folder an archive is to be written into does not exist
    /// (SQLite's and `open`'s own words, "unable to open database file" or "No such file or
    /// directory" on a side file, do not say which).
    ///
    /// - Throws: ``TileArchiveError`` of kind `.unwritable` for `path`.
    static func requireFolder(of path: String) throws(TileArchiveError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw TileArchiveError(.unwritable, path: path, "cannot create: \(folder) is not a folder")
            }
            return
        }
        throw TileArchiveError(
            .unwritable, path: path, "cannot create: the folder \(folder) does not exist; make it first (mkdir -p)")
    }
}
