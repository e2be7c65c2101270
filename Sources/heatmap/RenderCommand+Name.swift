extension RenderCommand {
    /// The tile set's name when `--name` is not given: DATA's base name (`crimes.csv.gz` gives
    /// `crimes`), or for points from standard input (`-`) the output's, as GDAL's MBTiles driver
    /// names a tile set (`heat.mbtiles` and `heat/` give `heat`), and `stdin` if that is empty.
    static func defaultName(data: String, output: String) -> String {
        guard data == "-" else { return LayerArguments.layerName(data) }
        let name = LayerArguments.layerName(output)
        return name.isEmpty || name == "." || name == ".." ? "stdin" : name
    }
}
