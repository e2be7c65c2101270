import HeatmapCore

extension HeatmapSettings {
    /// R, the kernel's reach in pixels at a zoom and scale: ``radius`` × scale, or with
    /// ``radiusMeters`` the ``GroundRadius`` at ``radiusLatitude`` (else `centreLatitude`).
    ///
    /// - Throws: ``HeatmapError/invalidGroundRadius(_:)`` for unusable metres or latitude.
    package func kernelRadius(zoom: Int, scale: Int, centreLatitude: Double) throws(HeatmapError) -> Int {
        guard let meters = radiusMeters else { return radius * scale }
        return try GroundRadius(meters: meters, latitude: radiusLatitude ?? centreLatitude)
            .pixels(zoom: zoom, scale: scale)
    }

    /// Checks the radius in metres and the mean's settings (part of ``validate()``).
    func validateRadiusAndMean() throws(HeatmapError) {
        if let meters = radiusMeters {
            _ = try GroundRadius(meters: meters, latitude: radiusLatitude ?? 0)
        } else if let latitude = radiusLatitude {
            _ = try GroundRadius(meters: 1, latitude: latitude)
        }
        guard minimumDensity.isFinite, minimumDensity >= 0 else {
            throw .invalidMean("minimum density \(minimumDensity) is not a finite number ≥ 0")
        }
        if let range = valueRange, !(range.lowerBound.isFinite && range.upperBound.isFinite) {
            throw .invalidMean("value range \(range) is not finite")
        }
    }
}
