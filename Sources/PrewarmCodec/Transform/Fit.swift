/// How a variant's box is filled when both width and height are given.
///
/// The manifest module has its own `Fit`; the pipeline maps one onto the other so the codec does not
/// depend on the manifest.
public enum Fit: String, Sendable, Hashable, CaseIterable {
    /// Fit inside the box, keeping the aspect ratio: one side may be shorter than asked.
    case contain
    /// Fill the box, keeping the aspect ratio, and crop what sticks out around the centre.
    case cover
    /// Stretch to exactly the box, ignoring the aspect ratio.
    case fill
}
