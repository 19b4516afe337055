import Foundation
import Testing

@testable import PrewarmCodec

@Suite("Decode pool")
struct DecodePoolTests {
    static let jpeg = "/usr/share/doc/afl++-doc/afl/testcases/images/jpeg/not_kitty.jpg"
    static let variants = [VariantRequest(name: "t", width: 16, format: .webp)]

    @Test("renders on its threads the same as the direct call")
    func render() async throws {
        let pool = DecodePool(threads: 2, byteBudget: 1 << 20)
        defer { pool.shutdown() }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.jpeg)))
        let result = try await pool.render(bytes, variants: Self.variants, options: RenderOptions())
        let direct = try VariantRenderer.render(bytes, variants: Self.variants, options: RenderOptions())
        #expect(result.info == direct.info)
        #expect(result.variants.first?.size == PixelSize(width: 16, height: 16))
        #expect(result.variants.first?.bytes == direct.variants.first?.bytes)
    }

    @Test("jobs larger than the whole budget run one at a time")
    func budget() async throws {
        let pool = DecodePool(threads: 3, byteBudget: 1)
        defer { pool.shutdown() }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.jpeg)))
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask { try await pool.render(bytes, variants: Self.variants, options: RenderOptions()).variants.count }
            }
            var total = 0
            for try await count in group { total += count }
            #expect(total == 6)
        }
        #expect(pool.peakRunningJobs == 1)
    }

    @Test("errors come back typed; after shutdown new work is refused")
    func errorsAndShutdown() async throws {
        let pool = DecodePool(threads: 1, byteBudget: 1 << 20)
        await #expect(throws: CodecError.notAnImage) {
            try await pool.render(Array("nope".utf8), variants: Self.variants, options: RenderOptions())
        }
        pool.shutdown()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.jpeg)))
        await #expect(throws: CodecError.decode("decode pool is shut down")) {
            try await pool.render(bytes, variants: Self.variants, options: RenderOptions())
        }
    }
}
