import Foundation
import HeatmapKit

/// The keys a configuration file may hold, checked before decoding, so that a misspelt key
/// (`"prot"`, `"radus"`) is an error naming it rather than a setting silently left out.
///
/// The known keys are the stored properties' names (the decoders' synthesized keys), read with
/// `Mirror`, and the settings' keys from ``SettingsSchema``, so a field or setting added is
/// known here without a second list.
extension ServeConfiguration {
    /// The top level's keys.
    static var topLevelKeys: Set<String> { propertyNames(of: ServeConfiguration()) }

    /// The keys of `defaults`, and of a layer beside its `name`, `file` and `url`: every
    /// setting's (in camelCase, or as its query name) and `value`.
    static var settingKeys: Set<String> {
        Set(SettingsSchema.configIndex.keys).union(SettingsSchema.rows.map(\.name)).union(["value"])
    }

    /// A layer's keys.
    static var layerKeys: Set<String> { settingKeys.union(["name", "file", "url"]) }

    /// A stack's keys.
    static var stackKeys: Set<String> { propertyNames(of: StackDefinition(name: "", layers: [])) }

    private static func propertyNames(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.compactMap(\.label))
    }

    /// The keys of `value`'s whole-number fields (Foundation's decoder reports a fraction there
    /// without the key, as "not valid JSON").
    private static func wholeNumberKeys(of value: Any) -> Set<String> {
        Set(Mirror(reflecting: value).children.filter { type(of: $0.value) == Int?.self }.compactMap(\.label))
    }

    /// Throws for the first key of `object` (a parsed configuration) that no field reads.
    ///
    /// - Throws: ``OverrideError`` naming the file, where the key is and the keys allowed there.
    static func checkKeys(of object: Any, path: String) throws(OverrideError) {
        guard let top = object as? [String: Any] else { return }
        try check(top, allowed: topLevelKeys, place: "at the top level", path: path)
        if let defaults = top["defaults"] as? [String: Any] {
            try check(defaults, allowed: settingKeys, place: "in \"defaults\"", path: path)
        }
        for (i, layer) in (top["layers"] as? [Any] ?? []).enumerated() {
            guard let layer = layer as? [String: Any] else { continue }
            try check(layer, allowed: layerKeys, place: "in layer \(i + 1)", path: path)
        }
        for (i, stack) in (top["stacks"] as? [Any] ?? []).enumerated() {
            guard let stack = stack as? [String: Any] else { continue }
            try check(stack, allowed: stackKeys, place: "in stack \(i + 1)", path: path)
        }
    }

    private static func check(
        _ object: [String: Any], allowed: Set<String>, place: String, path: String
    ) throws(OverrideError) {
        let whole = wholeNumberKeys(of: ServeConfiguration())
        for key in object.keys.sorted() where whole.contains(key) && allowed.contains(key) {
            if let number = object[key] as? NSNumber,
                number.doubleValue.rounded() != number.doubleValue
            {
                throw OverrideError("\(path): \(key) \(place) is \(number), expected a whole number")
            }
        }
        guard let unknown = object.keys.filter({ !allowed.contains($0) }).sorted().first else { return }
        let listed = allowed.filter { !$0.contains("-") && !SettingsSchema.isAlias(configKey: $0) }
        throw OverrideError(
            "\(path): unknown key \"\(unknown)\" \(place) (the keys there are \(listed.sorted().joined(separator: ", ")))"
        )
    }

    /// A decoding error as a user reads it: the key's path in the file and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func keyPath(_ codingPath: [any CodingKey]) -> String {
            let path = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return path.hasPrefix(".") ? String(path.dropFirst()) : (path.isEmpty ? "the file" : path)
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(keyPath(context.codingPath)): expected \(typeName(type)) (\(context.debugDescription))"
        case .valueNotFound(let type, let context):
            return "\(keyPath(context.codingPath)): expected \(typeName(type)), found null"
        case .keyNotFound(let key, let context):
            return "\(keyPath(context.codingPath + [key])): missing"
        case .dataCorrupted(let context):
            let detail = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "\(keyPath(context.codingPath)): \(detail ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default: "\(type)"
        }
    }
}
