import PrewarmCore
import Testing

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        // FIPS 180-4 examples.
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func streamingMatchesOneShot() {
        let text = String(repeating: "prewarm-", count: 1000)
        var streamed = SHA256()
        let bytes = Array(text.utf8)
        var offset = 0
        for chunk in [1, 63, 64, 65, 7, 1000, 2000] where offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            bytes[offset..<end].withUnsafeBytes { streamed.update($0) }
            offset = end
        }
        bytes[offset...].withUnsafeBytes { streamed.update($0) }
        #expect(SHA256.hexString(streamed.finalize()) == SHA256.hex(text))
        var generic = SHA256()
        generic.update(bytes)
        #expect(SHA256.hexString(generic.finalize()) == SHA256.hex(text))
    }
}
