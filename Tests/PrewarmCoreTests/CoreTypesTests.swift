import PrewarmCore
import Testing

@Suite struct CoreTypesTests {
    @Test func failureReasonCodesRoundTrip() {
        let reasons: [FailureReason] = [
            .http(404), .http(503), .timeout, .connect, .dns, .tls, .tooManyRedirects, .tooLarge,
            .truncated, .notAnImage, .unsupportedFormat, .decode, .tooManyPixels, .invalidURL,
            .blockedAddress, .disk,
        ]
        for reason in reasons {
            #expect(FailureReason(code: reason.code) == reason)
        }
        #expect(FailureReason(code: "nonsense") == nil)
    }

    @Test func permanenceFollowsTheSpec() {
        #expect(FailureReason.http(404).isPermanent)
        #expect(FailureReason.http(410).isPermanent)
        #expect(!FailureReason.http(408).isPermanent)
        #expect(!FailureReason.http(429).isPermanent)
        #expect(!FailureReason.http(503).isPermanent)
        #expect(FailureReason.decode.isPermanent)
        #expect(FailureReason.blockedAddress.isPermanent)
        #expect(!FailureReason.timeout.isPermanent)
        #expect(!FailureReason.truncated.isPermanent)
        #expect(!FailureReason.disk.isPermanent)
    }

    @Test func priorityStepsSaturate() {
        #expect(Priority.veryHigh.raised == .veryHigh)
        #expect(Priority.low.raised == .normal)
        #expect(Priority.veryLow.lowered == .veryLow)
        #expect(Priority(name: "very_high") == .veryHigh)
        #expect(Priority(name: "urgent") == nil)
    }

    @Test func redactsUserInfo() {
        #expect(Redaction.url("https://u:secret@x.test/a.jpg") == "https://***@x.test/a.jpg")
        #expect(Redaction.url("https://x.test/a@b.jpg") == "https://x.test/a@b.jpg")
        #expect(Redaction.url("https://x.test/a.jpg") == "https://x.test/a.jpg")
        #expect(Redaction.text("Bearer abc123 failed", secrets: ["abc123"]) == "Bearer *** failed")
    }
}
