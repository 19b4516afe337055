import PrewarmManifest

/// `prewarm run PATH... [flags]`.
struct RunCommand {
    let console: Console
    let environment: [String: String]
    let handleSignals: Bool

    static let options = [
        OptionSpec("cache", value: "DIR", help: "cache directory (overrides cache.path and $PREWARM_CACHE)"),
        OptionSpec("concurrency", value: "N", help: "URLs in flight for the whole run"),
        OptionSpec("shard", value: "K/N", help: "take the URLs whose cache key hashes to K of N"),
        OptionSpec(
            "shards", value: "N",
            help: "N shards; K from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or AWS_BATCH_JOB_ARRAY_INDEX"),
        OptionSpec("report", value: "FILE|-", help: "write the JSON report (prewarm.report/v1)"),
        OptionSpec("metrics", value: "FILE", help: "write Prometheus text metrics (atomically)"),
        OptionSpec("events", value: "FILE|-", help: "write one NDJSON line per URL outcome"),
        OptionSpec("progress", value: "MODE", help: "auto | bar | plain | none (default auto)"),
        OptionSpec("dry-run", help: "resolve and print the plan; fetch nothing"),
        OptionSpec("quiet", help: "no progress and no summary; errors only"),
        OptionSpec("verbose", help: "one line per URL outcome on stderr"),
        OptionSpec("help", help: "show this help"),
    ]

    static var help: String {
        """
        usage: prewarm run PATH... [flags]

        Warms the cache from one or more manifests (a file, or a folder of *.yaml). Flags override
        the manifests. Human output goes to stderr; stdout carries only --report - / --events -.

        \(ArgumentParser.helpText(for: options))
        """
    }

    func run(_ arguments: [String]) async throws(UsageError) -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: Self.options)
        if parsed.has("help") {
            console.out(Self.help)
            return ExitCode.success
        }
        guard !parsed.positionals.isEmpty else {
            throw UsageError("run needs at least one manifest file or folder, e.g. prewarm run jobs/demo.yaml")
        }
        var options = RunOptions(environment: environment)
        options.cache = parsed.value("cache")
        if let text = parsed.value("concurrency") {
            guard let value = Int(text), value >= 1 else {
                throw UsageError("--concurrency needs a whole number ≥ 1, got '\(text)'")
            }
            options.concurrency = value
        }
        options.shard = try shard(parsed)
        options.reportPath = parsed.value("report")
        options.metricsPath = parsed.value("metrics")
        options.eventsPath = parsed.value("events")
        if options.reportPath == "-" && options.eventsPath == "-" {
            throw UsageError("--report - and --events - cannot both use stdout; send one to a file")
        }
        let progress = parsed.value("progress") ?? "auto"
        guard ["auto", "bar", "plain", "none"].contains(progress) else {
            throw UsageError("--progress takes auto, bar, plain or none; got '\(progress)'")
        }
        options.progress = progress
        options.dryRun = parsed.has("dry-run")
        options.quiet = parsed.has("quiet")
        options.verbose = parsed.has("verbose")
        options.handleSignals = handleSignals

        let manifests: [Manifest]
        do {
            manifests = try ManifestLoader.load(paths: parsed.positionals, environment: environment)
        } catch {
            console.error(ManifestReport.describe(error))
            return ExitCode.usage
        }
        return await RunCoordinator(manifests: manifests, options: options, console: console).run()
    }

    private func shard(_ parsed: ParsedArguments) throws(UsageError) -> Shard? {
        if let text = parsed.value("shard") {
            guard let shard = Shard(parsing: text) else {
                throw UsageError("--shard takes K/N with 0 ≤ K < N, e.g. --shard 0/4; got '\(text)'")
            }
            return shard
        }
        guard let text = parsed.value("shards") else { return nil }
        guard let count = Int(text), count >= 1 else {
            throw UsageError("--shards takes a whole number ≥ 1; got '\(text)'")
        }
        for variable in Shard.indexVariables {
            guard let value = environment[variable] else { continue }
            guard let index = Int(value), (0..<count).contains(index) else {
                throw UsageError("\(variable)=\(value) is not a shard index below --shards \(count)")
            }
            return Shard(index: index, count: count)
        }
        throw UsageError(
            "--shards \(count) needs the shard index in one of \(Shard.indexVariables.joined(separator: ", ")); or use --shard K/N"
        )
    }
}

/// How manifest errors are shown: every issue, one per line, then what to do.
enum ManifestReport {
    static func describe(_ errors: ManifestErrors) -> String {
        let count = errors.issues.count
        return errors.description
            + "\nprewarm: \(count) manifest error\(count == 1 ? "" : "s"); nothing was fetched. Fix them and run `prewarm validate` to check."
    }
}
