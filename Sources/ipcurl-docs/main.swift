#if canImport(Glibc)
import Glibc
#endif
import IPCurlCLI

/// Writes `text` to standard error.
func complain(_ text: String) { _ = text.withCString { write(2, $0, strlen($0)) } }

// ipcurl-docs DIRECTORY: writes ipcurl.1, ipcurl.bash, _ipcurl and ipcurl.fish, rendered from ipcurl's option tables.
guard CommandLine.arguments.count == 2 else {
    complain("usage: ipcurl-docs DIRECTORY\n")
    exit(2)
}
let directory = CommandLine.arguments[1]
mkdir(directory, 0o755)
let completions = Documentation.completions()
for (name, text) in [("ipcurl.1", Documentation.manPage()), ("ipcurl.bash", completions.bash), ("_ipcurl", completions.zsh),
                     ("ipcurl.fish", completions.fish)] {
    guard let file = fopen(directory + "/" + name, "w"), fputs(text, file) >= 0, fclose(file) == 0 else {
        complain("ipcurl-docs: cannot write \(directory)/\(name)\n")
        exit(23)
    }
}
