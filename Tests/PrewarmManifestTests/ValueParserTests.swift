import PrewarmManifest
import Testing

@Suite struct ValueParserTests {
    @Test func durations() {
        #expect(ManifestValues.duration("1.5s") == 1.5)
        #expect(ManifestValues.duration("500ms") == 0.5)
        #expect(ManifestValues.duration("2m") == 120)
        #expect(ManifestValues.duration("24h") == 86_400)
        #expect(ManifestValues.duration("7d") == 604_800)
        #expect(ManifestValues.duration("1h30m") == 5_400)
        #expect(ManifestValues.duration("15") == 15)
        #expect(ManifestValues.duration("0") == 0)
        #expect(ManifestValues.duration("fast") == nil)
        #expect(ManifestValues.duration("5 parsecs") == nil)
        #expect(ManifestValues.duration("-1s") == nil)
        #expect(ManifestValues.duration("s") == nil)
        #expect(ManifestValues.duration("") == nil)
        #expect(ManifestValues.duration("1.2.3s") == nil)
    }

    @Test func byteSizes() {
        #expect(ManifestValues.byteSize("4096") == 4_096)
        #expect(ManifestValues.byteSize("10B") == 10)
        #expect(ManifestValues.byteSize("1KB") == 1_000)
        #expect(ManifestValues.byteSize("2MB") == 2_000_000)
        #expect(ManifestValues.byteSize("3GB") == 3_000_000_000)
        #expect(ManifestValues.byteSize("1KiB") == 1_024)
        #expect(ManifestValues.byteSize("50MiB") == 52_428_800)
        #expect(ManifestValues.byteSize("20GiB") == 21_474_836_480)
        #expect(ManifestValues.byteSize("1.5KiB") == 1_536)
        #expect(ManifestValues.byteSize("20 GiB") == 21_474_836_480)
        #expect(ManifestValues.byteSize("0") == 0)
        #expect(ManifestValues.byteSize("1.5") == nil)
        #expect(ManifestValues.byteSize("lots") == nil)
        #expect(ManifestValues.byteSize("5XB") == nil)
        #expect(ManifestValues.byteSize("-5MB") == nil)
        #expect(ManifestValues.byteSize("99999999999999TiB") == nil)
    }

    @Test func pixelCounts() {
        #expect(ManifestValues.pixelCount("100M") == 100_000_000)
        #expect(ManifestValues.pixelCount("16.7M") == 16_700_000)
        #expect(ManifestValues.pixelCount("16.7MP") == 16_700_000)
        #expect(ManifestValues.pixelCount("40000000") == 40_000_000)
        #expect(ManifestValues.pixelCount("2K") == 2_000)
        #expect(ManifestValues.pixelCount("1G") == 1_000_000_000)
        #expect(ManifestValues.pixelCount("1.5") == nil)
        #expect(ManifestValues.pixelCount("100X") == nil)
        #expect(ManifestValues.pixelCount("M") == nil)
    }
}
