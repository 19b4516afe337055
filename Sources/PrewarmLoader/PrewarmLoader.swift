// PrewarmLoader: see the README's architecture section.
import PrewarmCore
