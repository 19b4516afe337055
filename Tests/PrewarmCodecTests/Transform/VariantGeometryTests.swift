import Testing

@testable import PrewarmCodec

@Suite("Variant geometry")
struct VariantGeometryTests {
    struct Case: CustomStringConvertible, Sendable {
        let width: Int?
        let height: Int?
        let fit: Fit
        let enlarge: Bool
        let expected: PixelSize
        var description: String {
            "\(width.map(String.init) ?? "-")×\(height.map(String.init) ?? "-") \(fit) enlarge=\(enlarge)"
        }
    }

    static let source = PixelSize(width: 1000, height: 500)

    static let cases: [Case] = [
        // Shrinking: enlarge does not matter.
        Case(width: 200, height: 200, fit: .contain, enlarge: false, expected: .init(width: 200, height: 100)),
        Case(width: 200, height: 200, fit: .cover, enlarge: false, expected: .init(width: 200, height: 200)),
        Case(width: 200, height: 200, fit: .fill, enlarge: false, expected: .init(width: 200, height: 200)),
        Case(width: 200, height: nil, fit: .contain, enlarge: false, expected: .init(width: 200, height: 100)),
        Case(width: 200, height: nil, fit: .cover, enlarge: false, expected: .init(width: 200, height: 100)),
        Case(width: nil, height: 50, fit: .fill, enlarge: false, expected: .init(width: 100, height: 50)),
        Case(width: 200, height: 200, fit: .contain, enlarge: true, expected: .init(width: 200, height: 100)),
        Case(width: 200, height: 200, fit: .cover, enlarge: true, expected: .init(width: 200, height: 200)),
        // Growing without enlarge: never past the source.
        Case(width: 2000, height: 2000, fit: .contain, enlarge: false, expected: .init(width: 1000, height: 500)),
        Case(width: 2000, height: 2000, fit: .cover, enlarge: false, expected: .init(width: 1000, height: 500)),
        Case(width: 800, height: 800, fit: .cover, enlarge: false, expected: .init(width: 800, height: 500)),
        Case(width: 2000, height: 300, fit: .fill, enlarge: false, expected: .init(width: 1000, height: 300)),
        Case(width: 2000, height: nil, fit: .contain, enlarge: false, expected: .init(width: 1000, height: 500)),
        Case(width: nil, height: 600, fit: .contain, enlarge: false, expected: .init(width: 1000, height: 500)),
        // Growing with enlarge.
        Case(width: 2000, height: 2000, fit: .contain, enlarge: true, expected: .init(width: 2000, height: 1000)),
        Case(width: 2000, height: 2000, fit: .cover, enlarge: true, expected: .init(width: 2000, height: 2000)),
        Case(width: 2000, height: 300, fit: .fill, enlarge: true, expected: .init(width: 2000, height: 300)),
        Case(width: 2000, height: nil, fit: .contain, enlarge: true, expected: .init(width: 2000, height: 1000)),
        Case(width: nil, height: 600, fit: .cover, enlarge: true, expected: .init(width: 1200, height: 600)),
        // No box: the source size.
        Case(width: nil, height: nil, fit: .cover, enlarge: false, expected: .init(width: 1000, height: 500)),
    ]

    @Test("output size", arguments: cases)
    func outputSize(_ testCase: Case) {
        let geometry = VariantGeometry(
            source: Self.source, width: testCase.width, height: testCase.height, fit: testCase.fit,
            enlarge: testCase.enlarge)
        #expect(geometry.outputSize == testCase.expected)
    }

    @Test("sizes round to nearest like vipsthumbnail, at least 1 px")
    func rounding() {
        // 333 × 100/1001 = 33.27 → 33; 1000 × 100/300 = 333.3 → 333; 1 × 10/1000 = 0.01 → 1.
        #expect(VariantGeometry(source: .init(width: 1001, height: 333), width: 100, height: nil, fit: .contain, enlarge: false).outputSize == .init(width: 100, height: 33))
        #expect(VariantGeometry(source: .init(width: 300, height: 1000), width: 100, height: nil, fit: .contain, enlarge: false).outputSize == .init(width: 100, height: 333))
        #expect(VariantGeometry(source: .init(width: 1000, height: 1), width: 10, height: nil, fit: .contain, enlarge: false).outputSize == .init(width: 10, height: 1))
        // 150 × 0.5 = 75, 301 × 0.5 = 150.5 → 151 (half rounds up, as VIPS_ROUND_UINT).
        #expect(VariantGeometry(source: .init(width: 200, height: 301), width: 100, height: nil, fit: .contain, enlarge: false).outputSize == .init(width: 100, height: 151))
    }

    @Test("cover crops around the centre, before resizing")
    func coverCrop() {
        let geometry = VariantGeometry(source: Self.source, width: 200, height: 200, fit: .cover, enlarge: false)
        #expect(geometry.crop(in: Self.source) == PixelRect(x: 250, y: 0, width: 500, height: 500))
        // The same region on a source decoded at half size.
        #expect(geometry.crop(in: .init(width: 500, height: 250)) == PixelRect(x: 125, y: 0, width: 250, height: 250))
        // Without enlarge the box is cut from the unscaled image.
        let clipped = VariantGeometry(source: Self.source, width: 800, height: 800, fit: .cover, enlarge: false)
        #expect(clipped.crop(in: Self.source) == PixelRect(x: 100, y: 0, width: 800, height: 500))
        let contain = VariantGeometry(source: Self.source, width: 200, height: 200, fit: .contain, enlarge: false)
        #expect(contain.crop(in: Self.source) == PixelRect(Self.source))
    }

    @Test("the decode size each variant needs")
    func requiredSourceSize() {
        let cover = VariantGeometry(source: Self.source, width: 200, height: 200, fit: .cover, enlarge: false)
        #expect(cover.requiredSourceSize == .init(width: 400, height: 200))
        let contain = VariantGeometry(source: Self.source, width: 200, height: 200, fit: .contain, enlarge: false)
        #expect(contain.requiredSourceSize == .init(width: 200, height: 100))
        let bigger = VariantGeometry(source: Self.source, width: 4000, height: nil, fit: .contain, enlarge: true)
        #expect(bigger.requiredSourceSize == Self.source)
    }

    @Test("scale-down cap keeps the aspect ratio")
    func scaleDownCap() {
        let capped = PixelSize(width: 8000, height: 4000).cappedTo(pixels: RenderOptions.scaleDownPixelLimit)
        #expect(capped.pixelCount <= RenderOptions.scaleDownPixelLimit)
        #expect(capped.width == 2 * capped.height)
        #expect(PixelSize(width: 100, height: 100).cappedTo(pixels: RenderOptions.scaleDownPixelLimit) == .init(width: 100, height: 100))
    }
}
