// What `import HeatmapKit` gives of the engine underneath (HeatmapCore), by name: Google's
// facade (`WeightedLatLng`, `Coordinate`, `Gradient`, `RGBAColor`) and the values the library's
// API takes and returns. The rest of HeatmapCore is `package`: shared by this package's modules
// (which `import HeatmapCore` themselves), never part of the API (see api/public-symbols.txt).
@_exported import enum HeatmapCore.ColorScale
@_exported import struct HeatmapCore.Coordinate
@_exported import struct HeatmapCore.Gradient
@_exported import enum HeatmapCore.HeatmapError
@_exported import struct HeatmapCore.IntensityGrid
@_exported import struct HeatmapCore.MeanGrid
@_exported import struct HeatmapCore.RGBAColor
@_exported import struct HeatmapCore.RGBAImage
@_exported import struct HeatmapCore.ValueIndex
@_exported import struct HeatmapCore.WeightedLatLng
