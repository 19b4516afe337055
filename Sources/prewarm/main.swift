import Foundation
import PrewarmKit

// The prewarm command line: argument parsing and dispatch only; the work lives in PrewarmKit.
MemoryPolicy.keepLargeBuffersMapped()
let arguments = Array(CommandLine.arguments.dropFirst())
let status = await CommandLineInterface(console: Console()).run(arguments)
exit(status)
