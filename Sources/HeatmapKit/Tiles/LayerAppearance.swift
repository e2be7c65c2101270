/// The mutable look of a layer that Google's layers let you change at any time.
struct LayerAppearance: Sendable {
    var zIndex: Int
    var opacity: Double
}
