#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whose file `-o` leaves when it replaces an existing one, and with which mode.
///
/// The replacement keeps the old file's owner and mode, as curl's truncate-in-place keeps the inode's, where the
/// old file's owner is someone who could replace the file anyway: in a directory that is neither sticky nor
/// world-writable, in one the file's owner owns, or for a file of the running user. In a sticky or world-writable
/// directory (`/tmp`) anyone may have planted the old file, so a download there (by root) is never handed to the
/// planter: it belongs to the running user, and its mode is the old one cut by the umask, without set-id bits, so
/// nobody may write it whom a new file would not let. (Which planted names are not written at all, links and
/// FIFOs, is ``PlantedFiles``'s rule.)
enum ReplacementOwner {
    /// Whether the replacement of `existing`, in the directory whose status is `directory`, keeps its owner.
    static func keepsOwner(of existing: stat, in directory: stat) -> Bool {
        let shared = directory.st_mode & (S_ISVTX | S_IWOTH) != 0
        return !shared || existing.st_uid == directory.st_uid || existing.st_uid == geteuid()
    }

    /// Whether the replacement of `existing` (the file at `path`, symlinks resolved) keeps its owner; not when
    /// its directory cannot be read.
    static func keepsOwner(of existing: stat, at path: String) -> Bool {
        let directory = TemporaryName.split(path).directory
        var info = stat()
        return stat(directory.isEmpty ? "." : directory, &info) == 0 && keepsOwner(of: existing, in: info)
    }

    /// The mode of a replacement of `existing` that does not keep its owner: the old permission bits that `umask`
    /// leaves, no set-id or sticky bit.
    static func mode(replacing existing: stat, umask: mode_t) -> mode_t {
        existing.st_mode & 0o777 & ~umask
    }
}
