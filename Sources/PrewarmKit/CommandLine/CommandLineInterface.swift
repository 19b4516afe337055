import Foundation

/// `prewarm`'s commands. Lives in the library so tests drive the real CLI in-process.
public struct CommandLineInterface: Sendable {
    let console: Console
    let environment: [String: String]

    let handleSignals: Bool

    public init(
        console: Console, environment: [String: String] = ProcessInfo.processInfo.environment,
        handleSignals: Bool = true
    ) {
        self.console = console
        self.environment = environment
        self.handleSignals = handleSignals
    }

    static let usage = """
        prewarm \(prewarmVersion) — batch prefetcher and cache warmer for images

        usage:
          prewarm run PATH... [flags]        warm the cache from manifests (PATH = file or folder of *.yaml)
          prewarm validate PATH...           parse and check manifests; fetch nothing
          prewarm cache stats|clean|clear|path|verify|failed ... [--cache DIR]
          prewarm report merge REPORT.json... [-o OUT.json]
          prewarm --help | --version

        Every command has --help. Exit codes: 0 ok, 1 some URL failed, 2 usage or manifest error,
        3 environment error (cache not writable, disk full), 4 job locked by another run,
        130/143 interrupted.
        """

    /// Runs the command line and returns the exit code.
    public func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            console.error(Self.usage)
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        do {
            switch command {
            case "--help", "-h", "help":
                console.out(Self.usage)
                return ExitCode.success
            case "--version", "-V":
                console.out("prewarm \(prewarmVersion)")
                return ExitCode.success
            case "run":
                return try await RunCommand(console: console, environment: environment, handleSignals: handleSignals).run(rest)
            case "validate":
                return try ValidateCommand(console: console, environment: environment).run(rest)
            case "cache":
                return try CacheCommand(console: console, environment: environment).run(rest)
            case "report":
                return try ReportCommand(console: console).run(rest)
            default:
                let known = ["run", "validate", "cache", "report"]
                let guess = known.min { ArgumentParser.editDistance($0, command) < ArgumentParser.editDistance($1, command) }!
                let hint = ArgumentParser.editDistance(guess, command) <= 2 ? " (did you mean '\(guess)'?)" : ""
                throw UsageError("unknown command '\(command)'\(hint); see prewarm --help")
            }
        } catch let error as UsageError {
            console.error("prewarm: \(error.message)")
            return ExitCode.usage
        } catch {
            console.error("prewarm: \(error)")
            return ExitCode.usage
        }
    }
}
