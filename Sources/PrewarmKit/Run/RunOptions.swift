/// How `prewarm run` was asked to run: the flags, each overriding the manifests.
public struct RunOptions: Sendable {
    /// `--cache DIR`.
    public var cache: String?
    /// `--concurrency N`: bounds the whole run (each job keeps its own bound too).
    public var concurrency: Int?
    /// `--shard K/N` (or `--shards N` with the index from the environment).
    public var shard: Shard?
    /// `--report FILE|-`.
    public var reportPath: String?
    /// `--metrics FILE`.
    public var metricsPath: String?
    /// `--events FILE|-`.
    public var eventsPath: String?
    /// `--progress auto|bar|plain|none`.
    public var progress: String
    /// `--dry-run`: resolve and print the plan, fetch nothing.
    public var dryRun: Bool
    /// `--quiet`: no progress, no summary; errors only.
    public var quiet: Bool
    /// `--verbose`: one line per URL outcome on stderr.
    public var verbose: Bool
    /// The environment, for cache resolution.
    public var environment: [String: String]
    /// Turn SIGINT/SIGTERM into a clean stop (exit 130/143). Tests that run in-process turn it off.
    public var handleSignals: Bool = true

    public init(
        cache: String? = nil, concurrency: Int? = nil, shard: Shard? = nil, reportPath: String? = nil,
        metricsPath: String? = nil, eventsPath: String? = nil, progress: String = "auto",
        dryRun: Bool = false, quiet: Bool = false, verbose: Bool = false,
        environment: [String: String] = [:]
    ) {
        self.cache = cache
        self.concurrency = concurrency
        self.shard = shard
        self.reportPath = reportPath
        self.metricsPath = metricsPath
        self.eventsPath = eventsPath
        self.progress = progress
        self.dryRun = dryRun
        self.quiet = quiet
        self.verbose = verbose
        self.environment = environment
    }
}

/// prewarm's exit codes (SPEC "Exit codes").
public enum ExitCode {
    public static let success: Int32 = 0
    public static let failures: Int32 = 1
    public static let usage: Int32 = 2
    public static let environment: Int32 = 3
    public static let locked: Int32 = 4
}

/// prewarm's version, in reports, metrics and `--version`.
public let prewarmVersion = "0.1.0"
