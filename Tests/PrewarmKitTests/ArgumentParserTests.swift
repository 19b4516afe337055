import PrewarmKit
import Testing

@Suite struct ArgumentParserTests {
    let options = [
        OptionSpec("concurrency", value: "N", help: "URLs in flight"),
        OptionSpec("report", value: "FILE", help: "JSON report"),
        OptionSpec("quiet", help: "less output"),
    ]

    @Test func parsesValuesSwitchesAndPositionals() throws {
        let parsed = try ArgumentParser.parse(
            ["jobs/a.yaml", "--concurrency", "8", "--report=-", "--quiet", "-", "--", "--odd"],
            options: options)
        #expect(parsed.positionals == ["jobs/a.yaml", "-", "--odd"])
        #expect(parsed.value("concurrency") == "8")
        #expect(parsed.value("report") == "-")
        #expect(parsed.has("quiet"))
    }

    @Test func unknownOptionSuggestsTheNearestOne() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--concurency", "3"], options: options) }
        do {
            _ = try ArgumentParser.parse(["--concurency", "3"], options: options)
        } catch {
            #expect(error.message == "unknown option '--concurency' (did you mean '--concurrency'?)")
        }
    }

    @Test func missingValueAndStrayValueAreErrors() {
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--report"], options: options) }
        #expect(throws: UsageError.self) { try ArgumentParser.parse(["--quiet=yes"], options: options) }
    }
}
