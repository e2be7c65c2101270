import Foundation

/// Reads points from JSON as in Google's heatmap example: an array of objects with
/// `lat`/`latitude` and `lng`/`lon`/`longitude`, and an optional `weight` or `intensity`
/// (default 1).
///
/// ```json
/// [{"lat": -37.1886, "lng": 145.708}, {"lat": -37.8361, "lng": 144.845, "weight": 3}]
/// ```
public enum JSONPointReader {
    /// Reads the file at `path`.
    ///
    /// - Throws: ``PointFileError`` naming the file, and the element and field at fault.
    public static func read(contentsOf path: String) throws(PointFileError) -> [WeightedLatLng] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PointFileError(path: path, reason: "cannot be read (missing, a folder, or no permission)")
        }
        return try read(data, path: path)
    }

    /// Reads JSON bytes; `path` only names them in errors.
    public static func read(_ data: Data, path: String) throws(PointFileError) -> [WeightedLatLng] {
        let elements: [[String: Field]]
        do {
            elements = try JSONDecoder().decode([[String: Field]].self, from: data)
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            let place = "element \(context.codingPath[0].intValue ?? 0)"
            throw PointFileError(path: path, location: place, reason: "expected an object with \"lat\" and \"lng\"")
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            throw PointFileError(path: path, reason: "is not valid JSON" + (detail.map { " (\($0))" } ?? ""))
        } catch {
            throw PointFileError(path: path, reason: "expected a JSON array of {\"lat\": …, \"lng\": …} objects")
        }
        if elements.isEmpty { throw PointFileError(path: path, reason: "holds no points (an empty array)") }
        var points: [WeightedLatLng] = []
        points.reserveCapacity(elements.count)
        for (i, element) in elements.enumerated() {
            let place = "element \(i)"
            let object = element
            let lat = try number(object, ["lat", "latitude"], path: path, place: place)
            let lng = try number(object, ["lng", "lon", "long", "longitude"], path: path, place: place)
            guard let latitude = lat else {
                throw PointFileError(path: path, location: place, reason: "has no \"lat\" (or \"latitude\") field")
            }
            guard let longitude = lng else {
                throw PointFileError(
                    path: path, location: place, reason: "has no \"lng\" (or \"lon\", \"longitude\") field")
            }
            guard (-90...90).contains(latitude) else {
                throw PointFileError(
                    path: path, location: place, reason: "latitude \(latitude) is out of range -90...90")
            }
            let weight = try number(object, ["weight", "intensity"], path: path, place: place) ?? 1
            guard weight >= 0, weight <= Double(Float.greatestFiniteMagnitude) else {
                throw PointFileError(path: path, location: place, reason: "weight \(weight) is not a finite number ≥ 0")
            }
            points.append(
                WeightedLatLng(coordinate: Coordinate(latitude: latitude, longitude: longitude), intensity: weight))
        }
        return points
    }

    /// A field's value: a number, or anything else described for an error message.
    enum Field: Decodable {
        case number(Double)
        case other(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                self = .other(String(bool))
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let text = try? container.decode(String.self) {
                self = .other("\"\(text)\"")
            } else {
                self = .other(container.decodeNil() ? "null" : "an array or object")
            }
        }
    }

    /// The first of `names` present in `object` as a finite number; `nil` if none is present.
    private static func number(_ object: [String: Field], _ names: [String], path: String, place: String)
        throws(PointFileError) -> Double?
    {
        for name in names {
            switch object[name] {
            case nil: continue
            case .number(let value)?: return value
            case .other(let text)?:
                throw PointFileError(
                    path: path, location: place, reason: "field \"\(name)\" is \(text), expected a number")
            }
        }
        return nil
    }
}
