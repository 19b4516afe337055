import Foundation
import PrewarmCore
import PrewarmReport

/// Every place an outcome goes: the recorder (totals, the JSON report, metrics), the NDJSON
/// events, the live progress line, and `--verbose` lines. Built from the run's flags.
final class ReportSinks: Sendable {
    let recorder: RunRecorder
    private let events: EventWriter?
    private let progress: ProgressRenderer?
    private let options: RunOptions
    private let console: Console

    /// Whether outcomes need their cache paths (only events carry them; the skip path avoids
    /// reading metadata otherwise).
    var wantsPaths: Bool { events != nil }

    init(plan: RunPlan, options: RunOptions, console: Console) throws {
        self.options = options
        self.console = console
        recorder = RunRecorder(plan: plan)
        events = try options.eventsPath.map { try EventWriter(destination: $0) }
        let mode = options.quiet ? "none" : options.progress
        let recorder = recorder
        progress = ProgressMode(rawValue: mode).map {
            ProgressRenderer(mode: $0, recorder: recorder, environment: options.environment)
        }
    }

    /// Starts the live progress line.
    func start() {
        progress?.start()
    }

    func record(_ result: URLResult) {
        recorder.record(result)
        events?.write(result)
        if options.verbose {
            var line = "\(result.outcome.rawValue) \(result.url)"
            if let reason = result.reason { line += " \(reason.code)" }
            if let detail = result.detail, result.outcome == .failed { line += ": \(detail)" }
            console.error(line)
        }
    }

    /// Ends the run's output: progress line cleared, summary, report, metrics, events closed.
    func finish(exitCode: Int32, interrupted: Bool) {
        progress?.finish()
        events?.close()
        let report = recorder.report(version: prewarmVersion, exitCode: Int(exitCode), interrupted: interrupted)
        if !options.quiet {
            console.error(SummaryRenderer.render(report))
        }
        if let path = options.reportPath {
            do {
                try ReportWriter.write(report, to: path)
            } catch {
                console.error("prewarm: cannot write the report to \(path): \(error.description)")
            }
        }
        if let path = options.metricsPath {
            do {
                try PrometheusWriter.write(report, to: path)
            } catch {
                console.error("prewarm: cannot write metrics to \(path): \(error.description)")
            }
        }
    }
}
