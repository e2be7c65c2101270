/// The page at `/`: every layer on a Leaflet map over OpenStreetMap, a layer switcher, a
/// control for each setting whose row in ``SettingsSchema`` has one (radius, opacity, gradient,
/// colour scale, percentile, radius in metres; listed in `/catalog`), which re-request tiles (and
/// the legend) with query parameters, and beside them a PNG/WebP choice of the tiles' format.
enum MapPage {
    /// Where Leaflet comes from.
    enum LeafletSource {
        /// The server's own copy under `/leaflet/` (Debian's `libjs-leaflet`): works offline.
        case local
        /// unpkg, pinned with Subresource Integrity hashes.
        case cdn
    }

    static func html(leaflet: LeafletSource, baseMapURL: String, attribution: String) -> String {
        let tags: String
        switch leaflet {
        case .local:
            tags = """
                <link rel="stylesheet" href="/leaflet/leaflet.css">
                <script src="/leaflet/leaflet.js"></script>
                """
        case .cdn:
            tags = """
                <link rel="stylesheet" href="https://unpkg.com/leaflet@1.9.4/dist/leaflet.css"
                  integrity="sha256-p4NxAoJBhIIN+hmNHrzRCf9tD/miZyoHS5obTRR9BMY=" crossorigin="">
                <script src="https://unpkg.com/leaflet@1.9.4/dist/leaflet.js"
                  integrity="sha256-20nQCchB9co0qIjJZRGuk2/Z9VM+kNiyxNV1lvTlZBo=" crossorigin=""></script>
                """
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>HeatmapKit</title>
            \(tags)
            <style>
              html, body, #map { height: 100%; margin: 0; }
              /* One bottom panel: the controls on the left, the legend on the right; when both do
                 not fit on one line the legend wraps above, so neither ever covers the other. */
              #panel { position: absolute; z-index: 1000; bottom: 24px; left: 10px; right: 10px; display: flex;
                flex-wrap: wrap-reverse; align-items: flex-end; gap: 6px; pointer-events: none; }
              #panel > * { pointer-events: auto; }
              #controls { flex: 0 1 auto; min-width: 0; padding: 6px 10px; box-sizing: border-box;
                background: rgba(255, 255, 255, 0.9); border-radius: 4px; font: 13px sans-serif; }
              #controls label { margin-right: 10px; display: inline-block; }
              #legend { flex: 0 0 auto; margin-left: auto; width: 256px; height: 40px; max-width: 100%;
                border-radius: 4px; display: none; }
            \(timeStyle)
            </style>
            </head>
            <body>
            <div id="map"></div>
            <div id="panel">
            <div id="controls"><label id="format-choice">format <select id="format"><option>png</option><option>webp</option></select></label></div>
            <img id="legend" alt="legend">
            \(timePanel)
            </div>
            <script>
            "use strict";
            const BASE_MAP = \(jsString(baseMapURL));
            const ATTRIBUTION = \(jsString(attribution));
            const status = { tilesRequested: 0, tilesLoaded: 0, layers: 0 };
            function report() { document.body.dataset.tilesLoaded = status.tilesLoaded; document.body.dataset.layers = status.layers; }
            const map = L.map("map");
            const bases = {};
            if (BASE_MAP) {
              bases["OpenStreetMap"] = L.tileLayer(BASE_MAP, { maxZoom: 19,
                attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors' }).addTo(map);
            }
            // One control a setting, as the catalog lists them (made from the settings' schema).
            function makeControl(c, first) {
              const label = document.createElement("label");
              label.append(c.label + " ");
              let element;
              if (c.kind === "slider" || c.kind === "number") {
                element = document.createElement("input");
                element.type = c.kind === "slider" ? "range" : "number";
                for (const key of ["min", "max", "step", "placeholder"]) if (c[key] != null) element[key] = c[key];
                if (c.kind === "number") element.style.width = "5em";
                if (c.kind === "slider") element.value = first[c.name] != null ? first[c.name] : c.min;
              } else {
                element = document.createElement("select");
                for (const [i, value] of c.options.entries())
                  element.add(new Option(i === 0 && c.unset != null ? c.unset : value, value));
              }
              element.id = c.name;
              label.append(element);
              if (c.kind === "slider") {
                const shown = document.createElement("span");
                shown.id = c.name + "-value";
                label.append(" ", shown);
              }
              document.getElementById("controls").append(label);
              return { control: c, element };
            }
            \(timeScript)
            fetch("/catalog").then((r) => r.json()).then((catalog) => {
              const controls = catalog.controls.map((c) => makeControl(c, catalog.layers[0]));
              const time = timeControls(catalog, redraw);
              // The format's choice after the schema's controls; ?format=webp on the page asks for WebP
              // tiles (not a tile parameter: the extension says it).
              document.getElementById("controls").append(document.getElementById("format-choice"));
              const format = document.getElementById("format");
              if (new URLSearchParams(location.search).get("format") === "webp") format.value = "webp";
              function tileURL(info) { return "/" + info.name + "/{z}/{x}/{y}{r}." + format.value + query(info); }
              // The page's own query (/?gradient=fire&radius=30) sets the controls, for links.
              const given = new URLSearchParams(location.search);
              let tuned = false;
              for (const { control, element } of controls) {
                const name = control.name;
                if (!given.has(name)) continue;
                if (element.tagName === "SELECT" && ![...element.options].some((o) => o.value === given.get(name)))
                  element.add(new Option(given.get(name), given.get(name)));
                element.value = given.get(name);
                tuned = true;
              }
              // Sliders and the gradient always; a menu when set; a number when above 0 and in range.
              // The time panel's datetime= and category= for `info`'s tiles (see MapPage+Time.swift).
              function query(info) {
                const parts = time.parts(info);
                for (const { control, element } of tuned ? controls : []) {
                  const value = element.value;
                  if (control.kind === "choice" && !value) continue;
                  if (control.kind === "number" &&
                    !(Number(value) > 0 && (control.max == null || Number(value) <= control.max))) continue;
                  parts.push(control.name + "=" + encodeURIComponent(control.kind === "number" ? Number(value) : value));
                }
                return parts.length ? "?" + parts.join("&") : "";
              }
              const overlays = {};
              const layers = catalog.layers.map((info, i) => {
                const layer = L.tileLayer(tileURL(info), {
                  minZoom: info.minzoom, maxZoom: info.maxzoom, attribution: info.attribution || ATTRIBUTION });
                layer.on("tileloadstart", () => { status.tilesRequested++; report(); });
                layer.on("tileload", () => { status.tilesLoaded++; report(); });
                overlays[info.name] = layer;
                if (i === 0) layer.addTo(map);
                return { info, layer };
              });
              status.layers = layers.length;
              L.control.layers(bases, overlays, { collapsed: false }).addTo(map);
              // TileJSON's centre: its bounds are padded by the kernel's reach at the lowest zoom.
              const c = catalog.layers[0].center;
              map.setView([c[1], c[0]], c[2]);
              function show() {
                for (const { control, element } of controls)
                  if (control.kind === "slider") document.getElementById(control.name + "-value").textContent = element.value;
              }
              // The legend of the first heatmap shown, at the map's zoom and the tiles' parameters.
              const legend = document.getElementById("legend");
              function showLegend() {
                const shown = layers.find(({ info, layer }) => map.hasLayer(layer) && info.legend);
                if (!shown) { legend.style.display = "none"; return; }
                const z = Math.min(Math.max(Math.round(map.getZoom()), shown.info.minzoom), shown.info.maxzoom);
                const q = query(shown.info);
                const src = "/" + shown.info.name + "/legend.png?z=" + z + (L.Browser.retina ? "&scale=2" : "") +
                  (q ? "&" + q.slice(1) : "");
                if (legend.getAttribute("src") !== src) legend.src = src;
                legend.title = shown.info.name + ", zoom " + z;
                legend.style.display = "block";
                document.body.dataset.legend = src;
              }
              map.on("zoomend overlayadd overlayremove", showLegend);
              function update() {
                tuned = true;
                show();
                redraw();
              }
              function redraw() {
                for (const { info, layer } of layers) {
                  layer.setUrl(tileURL(info));
                  if (info.name === time.layer) layer.setOpacity(time.hides() ? 0 : 1);
                }
                showLegend();
              }
              for (const { control, element } of controls) {
                element.addEventListener("change", update);
                if (control.kind === "slider") element.addEventListener("input", show);
              }
              format.addEventListener("change", () => {
                for (const { info, layer } of layers) layer.setUrl(tileURL(info));
              });
              show();
              showLegend();
              report();
            });
            </script>
            </body>
            </html>

            """
    }

    /// A JavaScript string literal that cannot end the script element.
    static func jsString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"", "\\", "<", ">", "&", "'": out += "\\u" + hex4(scalar.value)
            case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
                out += "\\u" + hex4(scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
