// PrewarmCodec: see the README's architecture section.
import PrewarmCore
