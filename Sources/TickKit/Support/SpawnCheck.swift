import Glibc

/// Why a program cannot be started, checked before spawning it, in the words
/// Foundation's `Process.run()` threw (tick's messages quoted them): the
/// spawned child itself can only exit 127 when its `chdir` or `execve` fails.
enum SpawnCheck {
    /// nil when `program` is an executable file and `directory` a directory.
    static func problem(program: String, directory: String) -> String? {
        let prefix = "The operation could not be completed."
        var info = stat()
        if stat(directory, &info) != 0 {
            return errno == ENOTDIR ? "\(prefix) (NSCocoaErrorDomain error 256.)" : "\(prefix) The file doesn’t exist."
        }
        if info.st_mode & S_IFMT != S_IFDIR { return "\(prefix) (NSCocoaErrorDomain error 256.)" }
        if stat(program, &info) != 0 || info.st_mode & S_IFMT == S_IFDIR { return "\(prefix) The file doesn’t exist." }
        if access(program, X_OK) != 0 { return "\(prefix) You don’t have permission." }
        return nil
    }
}
