import HeatmapKit

extension ServeConfiguration.LayerSettings {
    /// Applies the radius in metres and the mean's keys (`radiusMeters`, `radiusLatitude`,
    /// `aggregate`, `minDensity`, `valueRange`), checked as `--radius-meters`, `--aggregate`,
    /// `--min-density` and `--value-range` are, the key named in the error. `value` is a data
    /// option: the caller reads the layer's file with it.
    ///
    /// - Throws: ``OverrideError`` naming the key and what it takes.
    func applyKernel(to settings: inout HeatmapSettings) throws(OverrideError) {
        if let radiusMeters {
            guard radiusMeters.isFinite, radiusMeters > 0 else {
                throw OverrideError("radiusMeters \(radiusMeters) is not a number of metres above 0")
            }
            settings.radiusMeters = radiusMeters
        }
        if let radiusLatitude {
            guard radiusLatitude.isFinite, (-90...90).contains(radiusLatitude) else {
                throw OverrideError("radiusLatitude \(radiusLatitude) is outside -90...90")
            }
            settings.radiusLatitude = radiusLatitude
        }
        if let aggregate {
            guard let value = Aggregate(rawValue: aggregate) else {
                throw OverrideError("aggregate is sum or mean, got \"\(aggregate)\"")
            }
            settings.aggregate = value
        }
        if let minDensity {
            guard minDensity.isFinite, minDensity >= 0 else {
                throw OverrideError("minDensity \(minDensity) is not a finite number ≥ 0")
            }
            settings.minimumDensity = minDensity
        }
        if let valueRange {
            guard valueRange.count == 2, valueRange[0].isFinite, valueRange[1].isFinite, valueRange[0] <= valueRange[1]
            else {
                throw OverrideError("valueRange expects [LO, HI] with LO <= HI, such as [0, 100], got \(valueRange)")
            }
            settings.valueRange = valueRange[0]...valueRange[1]
        }
        if let value, value.isEmpty { throw OverrideError("value is the name of a column or field, got \"\"") }
    }
}
