import PrewarmManifest

/// `prewarm validate PATH...`: parse and check; fetch nothing. Exit 0 when valid, 2 otherwise.
struct ValidateCommand {
    let console: Console
    let environment: [String: String]

    static let options = [OptionSpec("help", help: "show this help")]

    func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: Self.options)
        if parsed.has("help") {
            console.out(
                "usage: prewarm validate PATH...\n\nParses and checks manifests (all errors in one pass, as FILE:LINE:COLUMN); fetches nothing.")
            return ExitCode.success
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError("validate needs at least one manifest file or folder")
        }
        do {
            let manifests = try ManifestLoader.load(paths: parsed.positionals, environment: environment)
            for manifest in manifests {
                let urls = manifest.groups.reduce(0) { $0 + $1.source.count }
                let variants = Set(manifest.groups.flatMap { $0.settings.variants.map(\.name) })
                console.error(
                    "\(manifest.file): ok — job '\(manifest.job)', \(manifest.groups.count) group(s), \(urls) URL(s), \(variants.count) variant(s)"
                )
            }
            return ExitCode.success
        } catch {
            console.error(ManifestReport.describe(error))
            return ExitCode.usage
        }
    }
}
