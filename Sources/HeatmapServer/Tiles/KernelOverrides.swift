import HeatmapKit

/// The query parameters of the radius in metres and the mean, part of ``TileOverrides``:
/// `radius-meters=M`, `radius-latitude=LAT` (or `auto`: the data's centre), `aggregate=sum|mean`,
/// `min-density=D` and `value-range=LO,HI` (or `auto`: the data's values).
public struct KernelOverrides: Sendable, Hashable {
    /// The radius in ground metres; `.some(nil)` for `off` (the radius in points again).
    public var radiusMeters: Double??
    /// The reference latitude; `.some(nil)` for `auto`.
    public var radiusLatitude: Double??
    /// Sum or mean.
    public var aggregate: Aggregate?
    /// The least density the mean is shown at.
    public var minimumDensity: Double?
    /// The ends of the mean's ramp; `.some(nil)` for `auto`.
    public var valueRange: ClosedRange<Double>??

    /// The names understood.
    public static let parameterNames = ["radius-meters", "radius-latitude", "aggregate", "min-density", "value-range"]

    /// No overrides.
    public init() {}

    /// Takes one query item if it is one of these parameters (others are left alone).
    ///
    /// - Throws: ``OverrideError`` naming the parameter and the allowed values.
    public mutating func parse(name: String, value: String) throws(OverrideError) {
        switch name {
        case "radius-meters":
            if value == "off" {
                radiusMeters = .some(nil)
                return
            }
            guard let m = Double(value), m.isFinite, m > 0 else {
                throw OverrideError("radius-meters \"\(value)\" is not a number of metres > 0 or off")
            }
            radiusMeters = .some(m)
        case "radius-latitude":
            if value == "auto" {
                radiusLatitude = .some(nil)
                return
            }
            guard let l = Double(value), l.isFinite, (-90...90).contains(l) else {
                throw OverrideError("radius-latitude \"\(value)\" is not a latitude in -90...90 or auto")
            }
            radiusLatitude = .some(l)
        case "aggregate":
            guard let a = Aggregate(rawValue: value) else {
                throw OverrideError("aggregate \"\(value)\" is not sum or mean")
            }
            aggregate = a
        case "min-density":
            guard let d = Double(value), d.isFinite, d >= 0 else {
                throw OverrideError("min-density \"\(value)\" is not a number ≥ 0")
            }
            minimumDensity = d
        case "value-range":
            if value == "auto" {
                valueRange = .some(nil)
                return
            }
            let parts = value.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.count == 2, let low = parts[0], let high = parts[1], low.isFinite, high.isFinite, low <= high
            else { throw OverrideError("value-range \"\(value)\" is not LO,HI with LO <= HI, or auto") }
            valueRange = .some(low...high)
        default: return
        }
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool {
        radiusMeters == nil && radiusLatitude == nil && aggregate == nil && minimumDensity == nil && valueRange == nil
    }

    /// The settings with these applied.
    public func applied(to base: HeatmapSettings) -> HeatmapSettings {
        var settings = base
        if let radiusMeters { settings.radiusMeters = radiusMeters }
        if let radiusLatitude { settings.radiusLatitude = radiusLatitude }
        if let aggregate { settings.aggregate = aggregate }
        if let minimumDensity { settings.minimumDensity = minimumDensity }
        if let valueRange { settings.valueRange = valueRange }
        return settings
    }

    /// The query parts, canonical, in a fixed order.
    public var queryParts: [String] {
        var parts: [String] = []
        if let radiusMeters { parts.append("radius-meters=\(radiusMeters.map { "\($0)" } ?? "off")") }
        if let radiusLatitude { parts.append("radius-latitude=\(radiusLatitude.map { "\($0)" } ?? "auto")") }
        if let aggregate { parts.append("aggregate=\(aggregate.rawValue)") }
        if let minimumDensity { parts.append("min-density=\(minimumDensity)") }
        if let valueRange {
            parts.append("value-range=\(valueRange.map { "\($0.lowerBound),\($0.upperBound)" } ?? "auto")")
        }
        return parts
    }
}
