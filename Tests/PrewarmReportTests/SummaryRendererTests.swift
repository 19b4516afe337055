import Foundation
import PrewarmCore
import Testing

@testable import PrewarmReport

@Suite struct SummaryRendererTests {
    @Test func tableHasARowPerJobAndGroupAligned() throws {
        let text = SummaryRenderer.render(Fixtures.report())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try #require(lines.first)
        for column in [
            "urls", "fetched", "revalidated", "cached", "blacklisted", "missing", "failed",
            "cancelled", "variants", "MB", "time",
        ] {
            #expect(header.contains(column))
        }
        let table = Array(lines.prefix(6))
        #expect(
            table.map { $0.split(separator: " ").first.map(String.init) ?? "" }
                == ["job", "catalog", "home", "catalog", "avatars", "users"])
        #expect(
            Set(table.map(\.count)).count == 1,
            "rows differ in width:\n\(table.joined(separator: "\n"))")
        let total = try #require(lines.first { $0.hasPrefix("total") })
        #expect(total.hasSuffix("12.5s"))
        // 3,500 bytes downloaded is 0.0 MB.
        #expect(
            total.split(separator: " ").map(String.init)
                == ["total", "13", "3", "1", "2", "1", "1", "3", "1", "3", "0.0", "12.5s"])
    }

    @Test func failuresComeWithHintsAndExamples() {
        let text = SummaryRenderer.render(Fixtures.report())
        #expect(text.contains("Failures by reason:"))
        #expect(
            text.contains(
                "http_404  1  the origin has no such file; fix the URL or remove it; it is blacklisted for failed_ttl — use retry_failed to try again"
            ))
        #expect(text.contains("timeout   1  raise timeout or lower concurrency/per_host"))
        #expect(
            text.contains("tls       1  check the certificate; allow_invalid_ssl is for tests only")
        )
        #expect(text.contains("Example failures (3 of 3):"))
        #expect(
            text.contains(
                "timeout   https://slow.example.com/s.jpg  (catalog/catalog, 3 attempts): Operation timed out after 5000 ms"
            ))
        #expect(
            text.contains(
                "http_404  https://cdn.example.com/gone.jpg  (catalog/home, status 404, 1 attempt): Not Found"
            ))
    }

    @Test func aCleanRunHasNoFailureSection() {
        let results = Fixtures.results.filter { $0.outcome != .failed }
        let text = SummaryRenderer.render(Fixtures.report(results: results))
        #expect(!text.contains("Failures"))
        #expect(!text.contains("Example"))
    }

    @Test func everyReasonHasItsOwnHint() {
        let codes = [
            "timeout", "connect", "dns", "tls", "too_many_redirects", "too_large", "truncated",
            "not_an_image", "unsupported_format", "decode", "too_many_pixels", "invalid_url",
            "blocked_address", "disk", "http_404", "http_403", "http_429", "http_503", "http_418",
        ]
        let hints = codes.map(FailureHints.hint(for:))
        #expect(Set(hints).count == codes.count)
        #expect(FailureHints.hint(for: "disk").hasPrefix("free space or raise max_size"))
    }
}
