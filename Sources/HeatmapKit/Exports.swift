@_exported import HeatmapCore
