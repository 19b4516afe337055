// prewarm-demo-origin --root DIR [--port N]
// Serves DIR under /files/ (with the test origin's fault routes) until SIGINT or SIGTERM.
import Glibc
import TestOrigin

/// Writes a line to standard error (fd 2 directly: the C `stderr` global is not concurrency-safe in Swift 6).
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    printError("prewarm-demo-origin: \(message)\nusage: prewarm-demo-origin --root DIR [--port N]")
    exit(2)
}

var root: String?
var port = 0
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--root":
        guard let value = arguments.popFirst() else { fail("--root needs a folder") }
        root = value
    case "--port":
        guard let value = arguments.popFirst(), let number = Int(value), (0...65535).contains(number) else {
            fail("--port needs a number from 0 to 65535")
        }
        port = number
    case "-h", "--help":
        print("usage: prewarm-demo-origin --root DIR [--port N]")
        exit(0)
    default:
        fail("unknown argument \(argument)")
    }
}
guard let root else { fail("--root is required") }
var isDirectory = stat()
guard stat(root, &isDirectory) == 0, (isDirectory.st_mode & S_IFMT) == S_IFDIR else { fail("\(root) is not a folder") }

// Block the stop signals before any server thread exists, so they all inherit the mask and sigwait gets them.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGINT)
sigaddset(&stopSignals, SIGTERM)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let origin: TestOrigin
do {
    origin = try TestOrigin(root: root, port: port)
} catch {
    fail("\(error)")
}
printError("serving \(root) on \(origin.baseURL)")

var received: Int32 = 0
sigwait(&stopSignals, &received)
origin.stop()
printError("stopped (signal \(received)), served \(origin.totalRequests) requests")
