import PrewarmReport

/// `prewarm report merge REPORT.json... [-o OUT.json]`: joins per-shard reports into one with the
/// totals of a single run.
struct ReportCommand {
    let console: Console

    static let options = [
        OptionSpec("o", value: "FILE", help: "write the merged report here (default: stdout)"),
        OptionSpec("output", value: "FILE", help: "same as -o"),
        OptionSpec("help", help: "show this help"),
    ]

    func run(_ arguments: [String]) throws(UsageError) -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: Self.options)
        guard parsed.positionals.first == "merge", !parsed.has("help") else {
            console.out("usage: prewarm report merge REPORT.json... [-o OUT.json]\n\n\(ArgumentParser.helpText(for: Self.options))")
            return parsed.has("help") ? ExitCode.success : ExitCode.usage
        }
        let paths = Array(parsed.positionals.dropFirst())
        guard !paths.isEmpty else { throw UsageError("report merge needs at least one report file") }
        var reports: [RunReport] = []
        for path in paths {
            do {
                reports.append(try RunReport.load(path: path))
            } catch {
                console.error("prewarm: \(error.description)")
                return ExitCode.usage
            }
        }
        do {
            let merged = try ReportMerger.merge(reports)
            try ReportWriter.write(merged, to: parsed.value("o") ?? parsed.value("output") ?? "-")
            return ExitCode.success
        } catch let error as ReportMerger.MergeError {
            console.error("prewarm: cannot merge: \(error.description)")
            return ExitCode.usage
        } catch {
            console.error("prewarm: \(error)")
            return ExitCode.environment
        }
    }
}
