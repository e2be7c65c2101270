extension MapPage {
    /// The style of the time panel.
    static let timeStyle = """
          #time { flex: 1 1 100%; padding: 6px 10px; box-sizing: border-box; display: none;
            background: rgba(255, 255, 255, 0.9); border-radius: 4px; font: 13px sans-serif; }
          #time label { margin-right: 10px; display: inline-block; }
          #time-slider { width: 40%; vertical-align: middle; }
          #time-label { margin: 0 10px; }
          #time-window { width: 4em; }
          #time-categories { max-height: 5em; overflow-y: auto; }
        """

    /// The time panel: shown for the first layer whose TileJSON lists a time range or
    /// categories.
    static let timePanel = """
        <div id="time"><button id="time-play" type="button">play</button>
        <input id="time-slider" type="range" min="0" max="0" step="1" value="0">
        <span id="time-label"></span>
        <label>step <select id="time-step"><option value="1h">hour</option><option value="1d">day</option><option value="1w">week</option><option value="1mo">month</option></select></label>
        <label>window <input id="time-window" placeholder="= step" title="1h, 6h, 1d, 7d, 1w, 1mo, …"></label>
        <div id="time-categories"></div></div>
        """

    /// The time slider, play and pause, the step and window, and the category checkboxes
    /// (issue 28): `timeControls(catalog, changed)` builds them for the first layer with a time
    /// range or categories and returns `parts()`, the tiles' `datetime=` and `category=`
    /// parameters, and `hides()`, whether a column has no value checked (nothing to draw). The
    /// state lives in the page's own query (`step`, `window`, `at`: the frame's start,
    /// `category`, `play`), so a link reproduces it.
    ///
    /// Frames follow the command's `FramePlan`: frame k opens k steps after the range's first
    /// second, rounded down to a whole unit (the hour, midnight UTC, the month's first day;
    /// months are calendar months in UTC), shows one window (not cut: no point lies past the range), and
    /// frames run while they open before the end (at most 10,000).
    static let timeScript = """
        const UNIT_SECONDS = { h: 3600, d: 86400, w: 604800 };
        function parseLength(text) {
          const m = /^\\s*(\\d{1,7})\\s*(h|d|w|mo)\\s*$/.exec(text || "");
          return m && Number(m[1]) > 0 ? { count: Number(m[1]), unit: m[2] } : null;
        }
        function advance(t, length, times) {
          if (length.unit !== "mo") return t + times * length.count * UNIT_SECONDS[length.unit];
          const d = new Date(t * 1000);
          const month = d.getUTCMonth() + times * length.count;
          const last = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
          const day = Math.min(d.getUTCDate(), last);
          const second = t - Math.floor(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()) / 1000);
          return Date.UTC(d.getUTCFullYear(), month, day) / 1000 + second;
        }
        function isoTime(t) { return new Date(t * 1000).toISOString().replace(".000Z", "Z"); }
        function shownTime(a, b) {
          const x = isoTime(a), y = isoTime(b);
          if (x.endsWith("T00:00:00Z") && y.endsWith("T00:00:00Z")) return x.slice(0, 10) + " – " + y.slice(0, 10);
          return x.slice(0, 16).replace("T", " ") + " – " + (x.slice(0, 10) === y.slice(0, 10) ? y.slice(11, 16) : y.slice(0, 16).replace("T", " ")) + " UTC";
        }
        function seconds(value) {
          if (typeof value === "number") return value;
          const parsed = Date.parse(value);
          return Number.isNaN(parsed) ? null : Math.floor(parsed / 1000);
        }
        // [first second, second after the last] from TileJSON's timeRange ([start, end] or {start, end}).
        function timeRangeOf(info) {
          const r = info.timeRange;
          if (!r) return null;
          const a = seconds(Array.isArray(r) ? r[0] : r.start), b = seconds(Array.isArray(r) ? r[1] : r.end);
          return a == null || b == null ? null : [a, b + 1];
        }
        // [{ column, values }] from TileJSON's categories ({ column: [{ value, count }] } or a list of them).
        function categoriesOf(info) {
          const c = info.categories;
          if (!c) return [];
          const list = Array.isArray(c) ? c : Object.entries(c).map(([column, values]) => ({ column, values }));
          return list.map((entry) => ({ column: entry.column || entry.name,
            values: (entry.values || []).map((v) => typeof v === "object" ? String(v.value) : String(v)) }));
        }
        function timeControls(catalog, changed) {
          const info = catalog.layers.find((l) => timeRangeOf(l) || categoriesOf(l).length);
          const none = { parts: () => [], hides: () => false, layer: null };
          if (!info) return none;
          const given = new URLSearchParams(location.search);
          const panel = document.getElementById("time");
          panel.style.display = "block";
          panel.dataset.layer = info.name;
          const range = timeRangeOf(info);
          const slider = document.getElementById("time-slider"), label = document.getElementById("time-label");
          const stepChoice = document.getElementById("time-step"), windowField = document.getElementById("time-window");
          const play = document.getElementById("time-play");
          let opens = [];
          function plan() {
            opens = [];
            if (!range) return;
            const step = parseLength(stepChoice.value);
            // Frames open on whole units (the hour, midnight UTC, the month's first day) from the first time.
            const d = new Date(range[0] * 1000);
            const first = step.unit === "h" ? range[0] - range[0] % 3600
              : step.unit === "mo" ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000 : range[0] - range[0] % 86400;
            for (let k = 0; k < 10000; k++) {
              const t = advance(first, step, k);
              if (t >= range[1]) break;
              opens.push(t);
            }
            slider.max = Math.max(0, opens.length - 1);
          }
          function frameWindow() {
            if (!range || !opens.length) return null;
            const start = opens[Math.min(Number(slider.value), opens.length - 1)];
            const length = parseLength(windowField.value) || parseLength(stepChoice.value);
            return [start, advance(start, length, 1)];
          }
          if (given.get("step") && parseLength(given.get("step"))) {
            const step = given.get("step");
            if (![...stepChoice.options].some((o) => o.value === step)) stepChoice.add(new Option(step, step));
            stepChoice.value = step;
          } else {
            // A day when the range is over two days, else an hour.
            stepChoice.value = range && range[1] - range[0] > 2 * 86400 ? "1d" : "1h";
          }
          if (parseLength(given.get("window"))) windowField.value = given.get("window");
          plan();
          const at = seconds(given.get("at") || "");
          if (at != null) slider.value = Math.max(0, opens.filter((t) => t <= at).length - 1);
          if (!range) for (const element of [play, slider, label, stepChoice.parentElement, windowField.parentElement])
            element.style.display = "none";
          // One row of checkboxes a column, all checked (no filter) unless the page's query names values.
          const columns = categoriesOf(info).map(({ column, values }) => {
            const row = document.createElement("div");
            row.append(column + ": ");
            const chosen = given.getAll("category").filter((c) => c.startsWith(column + ":"))
              .flatMap((c) => c.slice(column.length + 1).split(",").map(decodeURIComponent));
            const boxes = values.map((value) => {
              const box = document.createElement("input");
              box.type = "checkbox";
              box.value = value;
              box.checked = box.defaultChecked = chosen.length === 0 || chosen.includes(value);
              box.addEventListener("change", update);
              const l = document.createElement("label");
              l.append(box, " " + value);
              row.append(l);
              return box;
            });
            document.getElementById("time-categories").append(row);
            return { column, boxes };
          });
          // The parameters for a layer's tiles: those of the filters it has (all when not given one).
          function parts(layer) {
            const out = [];
            const w = frameWindow();
            if (w && (!layer || timeRangeOf(layer))) out.push("datetime=" + isoTime(w[0]) + "/" + isoTime(w[1]));
            const has = layer ? categoriesOf(layer).map((c) => c.column) : null;
            for (const { column, boxes } of columns) {
              if (has && !has.includes(column)) continue;
              const on = boxes.filter((b) => b.checked);
              if (on.length && on.length < boxes.length)
                out.push("category=" + encodeURIComponent(column) + ":" + on.map((b) => encodeURIComponent(b.value)).join(","));
            }
            return out;
          }
          function hides() { return columns.some(({ boxes }) => !boxes.some((b) => b.checked)); }
          // The page's own query keeps the state, for links.
          function remember() {
            const q = new URLSearchParams(location.search);
            for (const key of ["step", "window", "at", "category", "play"]) q.delete(key);
            const w = frameWindow();
            if (w) { q.set("step", stepChoice.value); q.set("at", isoTime(w[0])); }
            if (w && windowField.value) q.set("window", windowField.value);
            for (const part of parts()) if (part.startsWith("category=")) q.append("category", decodeURIComponent(part.slice(9)));
            if (timer) q.set("play", "1");
            history.replaceState(null, "", location.pathname + (q.toString() ? "?" + q.toString().replace(/%2F/g, "/").replace(/%3A/g, ":").replace(/%2C/g, ",") : ""));
          }
          function update() {
            const w = frameWindow();
            label.textContent = w ? shownTime(w[0], w[1]) : "";
            slider.title = label.textContent;
            document.body.dataset.datetime = w ? isoTime(w[0]) + "/" + isoTime(w[1]) : "";
            document.body.dataset.frame = slider.value;
            remember();
            changed();
          }
          let timer = null;
          function toggle(on) {
            if (timer) { clearInterval(timer); timer = null; }
            if (on) timer = setInterval(() => {
              slider.value = (Number(slider.value) + 1) % opens.length;
              document.body.dataset.framesShown = (Number(document.body.dataset.framesShown) || 0) + 1;
              update();
            }, 1000);
            play.textContent = on ? "pause" : "play";
            remember();
          }
          play.addEventListener("click", () => toggle(!timer));
          slider.addEventListener("input", update);
          stepChoice.addEventListener("change", () => { plan(); slider.value = 0; update(); });
          windowField.addEventListener("change", () => {
            windowField.style.color = windowField.value && !parseLength(windowField.value) ? "red" : "";
            update();
          });
          const w = frameWindow();
          label.textContent = w ? shownTime(w[0], w[1]) : "";
          document.body.dataset.datetime = w ? isoTime(w[0]) + "/" + isoTime(w[1]) : "";
          if (given.get("play") === "1" && range) toggle(true);
          return { parts, hides, layer: info.name };
        }
        """
}
