import Foundation

/// Files and folders that Diary makes are its owner's alone (0600 and 0700), as jrnl's journal
/// is: a diary, its backups and exports are read by no other account on the machine. The modes
/// are set explicitly, never left to the umask, which may be 000.
public enum OwnerOnlyFile {
    public static let fileMode: mode_t = 0o600
    public static let folderMode: mode_t = 0o700

    /// Creates a new, empty file at `path` that only its owner may read or write, and opens it
    /// for writing. Fails if anything is already there (`EEXIST`): nothing is ever overwritten
    /// through it.
    public static func create(atPath path: String) throws -> FileHandle {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw OwnerOnlyFileError(path: path, code: errno) }
        // open() applies the umask, which only takes permissions away; this puts back exactly 0600.
        fchmod(descriptor, fileMode)
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Makes `path` and any missing folder above it, each 0700. Folders already there are left
    /// as they are.
    public static func makeFolders(_ path: String) throws {
        var isFolder: ObjCBool = false
        if path.isEmpty || FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) { return }
        try makeFolders((path as NSString).deletingLastPathComponent)
        guard mkdir(path, folderMode) == 0 || errno == EEXIST else { throw OwnerOnlyFileError(path: path, code: errno) }
        chmod(path, folderMode)
    }
}

/// A file or folder that could not be made, with the system's reason.
public struct OwnerOnlyFileError: Error, CustomStringConvertible, LocalizedError {
    public let path: String
    public let code: Int32

    public var isExisting: Bool { code == EEXIST }

    public var description: String {
        "Cannot create \(path): \(String(cString: strerror(code)))."
    }

    public var errorDescription: String? { description }
}
