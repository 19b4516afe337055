import Foundation
import PrewarmCore
import Synchronization
import Testing

@testable import PrewarmReport

@Suite struct ProgressRendererTests {
    /// A progress source the test moves by hand.
    final class Source: Sendable {
        let current = Mutex(RunProgress(totals: Fixtures.totals(urls: 10), elapsedSeconds: 2))
        func get() -> RunProgress { current.withLock { $0 } }
        func finish(_ n: Int, failed: Int = 0) {
            current.withLock {
                $0.totals.fetched += n
                $0.totals.failed += failed
                $0.totals.bytesDownloaded += Int64(n) * 1_500_000
            }
        }
    }

    private func renderer(
        _ mode: ProgressMode, _ source: Source, _ capture: Capture, tty: Bool = false,
        env: [String: String] = [:], width: Int = 200, plainInterval: Double = 5
    ) -> ProgressRenderer {
        ProgressRenderer(
            mode: mode, source: { source.get() }, sink: { capture.append($0) }, isTerminal: tty,
            environment: env, plainInterval: plainInterval, terminalWidth: { width })
    }

    @Test func plainPrintsALineOnlyWhenSomethingChanged() {
        let source = Source()
        let capture = Capture()
        let progress = renderer(.auto, source, capture)
        #expect(progress.style == .plain)
        source.finish(3, failed: 1)
        progress.render()
        progress.render()
        #expect(capture.all.count == 1)
        let line = capture.all[0]
        #expect(line.hasSuffix("\n"))
        #expect(!line.contains("\r"))
        #expect(line.contains("4/10 40.0%"))
        #expect(line.contains("fetched 3"))
        #expect(line.contains("failed 1"))
        #expect(line.contains("2.0 URLs/s"))
        #expect(line.contains("ETA 00:03"))
        #expect(line.contains("4.5 MB"))
        source.finish(1)
        progress.render()
        #expect(capture.all.count == 2)
        #expect(capture.all[1].contains("5/10"))
        progress.finish()
        #expect(capture.all.count == 2)
    }

    @Test func barRedrawsInPlaceTruncatedToTheWidthAndFinishClears() {
        let source = Source()
        let capture = Capture()
        let progress = renderer(.bar, source, capture, width: 40)
        source.finish(2)
        progress.render()
        let line = capture.all[0]
        #expect(line.hasPrefix("\r"))
        #expect(line.hasSuffix("\u{1B}[K"))
        let visible = line.dropFirst().dropLast(3)
        #expect(visible.count == 39)
        #expect(visible.hasPrefix("2/10 20.0%"))
        progress.finish()
        #expect(capture.all.last == "\r\u{1B}[K")
    }

    @Test func autoOnATerminalIsABarWithColourUnlessNoColor() {
        let source = Source()
        source.finish(1, failed: 2)
        let coloured = Capture()
        let tty = renderer(.auto, source, coloured, tty: true)
        #expect(tty.style == .bar && tty.usesColor)
        tty.render()
        #expect(coloured.text.contains("\u{1B}[31mfailed 2\u{1B}[0m"))

        let plain = Capture()
        let noColor = renderer(.auto, source, plain, tty: true, env: ["NO_COLOR": "1"])
        #expect(!noColor.usesColor)
        noColor.render()
        #expect(plain.text.contains("failed 2"))
        #expect(!plain.text.contains("\u{1B}[3"))

        let piped = Capture()
        renderer(.bar, source, piped, tty: false).render()
        #expect(!piped.text.contains("\u{1B}[3"))
    }

    @Test func noneDrawsNothing() {
        let source = Source()
        let capture = Capture()
        let progress = renderer(.none, source, capture, plainInterval: 0.01)
        progress.start()
        source.finish(5)
        progress.render()
        progress.finish()
        #expect(capture.all.isEmpty)
    }

    @Test func theTimerDrawsWithoutBeingAsked() {
        let source = Source()
        source.finish(1)
        let drawn = DispatchSemaphore(value: 0)
        let capture = Capture()
        let progress = ProgressRenderer(
            mode: .plain, source: { source.get() },
            sink: {
                capture.append($0)
                drawn.signal()
            }, isTerminal: false, environment: [:],
            plainInterval: 0.02)
        progress.start()
        #expect(drawn.wait(timeout: .now() + 2) == .success)
        progress.finish()
        // Nothing changed after the first line, so the timer added no more.
        #expect(capture.all.count == 1)
        #expect(capture.all[0].contains("1/10"))
    }

    @Test func etaFormatting() {
        #expect(ProgressLine.formatDuration(0) == "00:00")
        #expect(ProgressLine.formatDuration(61.2) == "01:02")
        #expect(ProgressLine.formatDuration(3725) == "1:02:05")
    }
}
