#!/usr/bin/env python3
"""Fill the polygons of an INKOUTL1 file with the engines people would pick instead of Inkwell.

Engines: blend2d (one thread), skia-n32 (8-bit premultiplied), skia-f16 (half float, linear sRGB
color space), cairo (ARGB32, the system libcairo through ctypes). Each engine builds its paths and
paints from the file before any clock starts; a timed run clears every document's surface to opaque
white, fills every polygon (non-zero, anti-aliased, source-over) and flushes. Nothing else is timed.

The file (little-endian): b"INKOUTL1"; u32 width, height, out_width, out_height, documents,
polygons; u64 vertices; then per polygon f32 r, g, b, a (straight alpha, sRGB-encoded, 0...1),
u32 document index, u32 vertex count, and that many f32 x, y pairs. Polygons close implicitly.
Documents are scaled by out_width / width onto out_width x out_height surfaces.

Standalone:
    fill.py FILE [--engine NAME]... [--runs N] [--png-dir DIR]
prints one JSON object: each engine's median, min and max milliseconds over N runs after a
warm-up (engines interleaved run by run), or why it is unavailable. With --png-dir it writes each
engine's first document as DIR/ENGINE.png (8-bit sRGB RGBA) for a pixel comparison.

Pixel comparison (decodes with skia-python):
    fill.py --compare A.png B.png
prints, over RGB, the largest difference, the mean, and how many pixels differ by more than 2 and 16.

Worker (what inkwell-bench uses, so its runs interleave with Inkwell's):
    fill.py --serve ENGINE FILE
prints "ready" (or "unavailable: WHY") once its paths are built, then answers each line it reads:
"run" -> "ms FLOAT"; "write PATH" -> "ok" (first document as PNG); "quit" ends it.
"""

import ctypes
import ctypes.util
import json
import os
import statistics
import struct
import sys
import time
import zlib

ENGINES = ["blend2d", "skia-n32", "skia-f16", "cairo"]


class Scene:
    """The polygons of one file, grouped by document."""

    def __init__(self, path):
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] != b"INKOUTL1":
            raise ValueError(f"{path}: not an INKOUTL1 file")
        (self.width, self.height, self.out_width, self.out_height, self.document_count,
         polygon_count, self.vertex_count) = struct.unpack_from("<6IQ", data, 8)
        self.scale = self.out_width / self.width
        # Per document: a list of (rgba tuple, flat list of x, y already scaled).
        self.documents = [[] for _ in range(self.document_count)]
        import numpy

        offset = 8 + 6 * 4 + 8
        for index in range(polygon_count):
            r, g, b, a, document, count = struct.unpack_from("<4f2I", data, offset)
            offset += 24
            if document >= self.document_count:
                raise ValueError(f"{path}: polygon {index} names document {document}")
            points = numpy.frombuffer(data, dtype="<f4", count=2 * count, offset=offset)
            offset += 8 * count
            points = points.astype(numpy.float64) * self.scale
            self.documents[document].append(((r, g, b, a), points))


def png_bytes(rgba_rows, width, height):
    """An 8-bit RGBA PNG from `height` rows of `width` * 4 bytes each (stdlib zlib only)."""
    raw = b"".join(b"\x00" + bytes(row) for row in rgba_rows)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">2I5B", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def write_png(path, array):
    """`array`: height x width x 4 uint8, RGBA."""
    height, width = array.shape[0], array.shape[1]
    with open(path, "wb") as f:
        f.write(png_bytes((array[y].tobytes() for y in range(height)), width, height))


def bgra_premultiplied_to_rgba(array):
    """A little-endian 32-bit ARGB (B, G, R, A in memory) premultiplied image as straight RGBA."""
    import numpy

    rgba = array[..., [2, 1, 0, 3]].astype(numpy.float64)
    alpha = rgba[..., 3:4]
    safe = numpy.where(alpha > 0, alpha, 1)
    rgba[..., :3] = numpy.where(alpha > 0, rgba[..., :3] * 255 / safe, 0)
    return numpy.clip(numpy.rint(rgba), 0, 255).astype(numpy.uint8)


class Blend2D:
    """Blend2D through `blend2d-python` (BLContext, one thread) or, failing that, `blend2d-py`."""

    def __init__(self, scene):
        import blend2d

        self.scene = scene
        self.full_api = hasattr(blend2d, "BLContext")
        self.bl = blend2d
        self.documents = []
        for polygons in scene.documents:
            items = []
            for (r, g, b, a), points in polygons:
                path = blend2d.BLPath() if self.full_api else blend2d.Path()
                xy = points.tolist()
                path.move_to(xy[0], xy[1])
                for i in range(2, len(xy), 2):
                    path.line_to(xy[i], xy[i + 1])
                path.close()
                if self.full_api:
                    style = (r, g, b, a)
                else:
                    style = tuple(int(round(c * 255)) for c in (r, g, b, a))
                items.append((style, path))
            self.documents.append(items)
        if self.full_api:
            self.images = [blend2d.BLImage(scene.out_width, scene.out_height, blend2d.BLFormat.PRGB32)
                           for _ in self.documents]
        else:
            self.images = [blend2d.Image(scene.out_width, scene.out_height) for _ in self.documents]
        self.version = "blend2d-python, Blend2D %d.%d.%d" % blend2d.BL_VERSION if self.full_api else (
            "blend2d-py " + blend2d.version())

    def run(self):
        for image, items in zip(self.images, self.documents):
            if self.full_api:
                context = self.bl.BLContext(image)
                context.fill_rule = self.bl.BLFillRule.NON_ZERO
                context.comp_op = self.bl.BLCompOp.SRC_COPY
                context.set_fill_style((1.0, 1.0, 1.0, 1.0))
                context.fill_all()
                context.comp_op = self.bl.BLCompOp.SRC_OVER
                for style, path in items:
                    context.set_fill_style(style)
                    context.fill_path(path)
                context.flush()
                del context
            else:
                context = self.bl.Context(image)
                context.set_fill_style_rgba(255, 255, 255, 255)
                context.fill_all()
                for style, path in items:
                    context.set_fill_style_rgba(*style)
                    context.fill_path(path)
                context.end()

    def rgba(self, document):
        import numpy

        image = self.images[document]
        if self.full_api:
            # blend2d-python hands out RGBA already; the surface is opaque, so premultiplied = straight.
            shape = (self.scene.out_height, self.scene.out_width, 4)
            return numpy.array(image.getDataAsNumPy(), dtype=numpy.uint8).reshape(shape)
        return bgra_premultiplied_to_rgba(image.asarray())


class Skia:
    """skia-python raster surfaces: 8-bit N32, or half-float RGBA in the linear sRGB color space."""

    def __init__(self, scene, linear):
        import skia

        self.skia = skia
        self.scene = scene
        if linear:
            info = skia.ImageInfo.Make(scene.out_width, scene.out_height, skia.kRGBA_F16_ColorType,
                                       skia.kPremul_AlphaType, skia.ColorSpace.MakeSRGBLinear())
        else:
            info = skia.ImageInfo.MakeN32Premul(scene.out_width, scene.out_height, skia.ColorSpace.MakeSRGB())
        self.surfaces = [skia.Surface.MakeRaster(info) for _ in scene.documents]
        if any(surface is None for surface in self.surfaces):
            # Skia refuses raster surfaces of 2 GiB and more (16384 x 16384 in F16 is exactly 2 GiB).
            raise MemoryError(f"Skia cannot make a {scene.out_width}x{scene.out_height} "
                              f"{'F16' if linear else 'N32'} raster surface")
        srgb = skia.ColorSpace.MakeSRGB()
        self.documents = []
        for polygons in scene.documents:
            items = []
            for (r, g, b, a), points in polygons:
                path = skia.Path()
                path.setFillType(skia.PathFillType.kWinding)
                path.addPoly([tuple(xy) for xy in points.reshape(-1, 2).tolist()], True)
                paint = skia.Paint()
                paint.setAntiAlias(True)
                paint.setColor4f(skia.Color4f(r, g, b, a), srgb)
                items.append((path, paint))
            self.documents.append(items)
        self.version = "skia-python " + skia.__version__

    def run(self):
        for surface, items in zip(self.surfaces, self.documents):
            canvas = surface.getCanvas()
            canvas.clear(self.skia.ColorWHITE)
            for path, paint in items:
                canvas.drawPath(path, paint)
            surface.flushAndSubmit()

    def rgba(self, document):
        image = self.surfaces[document].makeImageSnapshot()
        return image.toarray(colorType=self.skia.kRGBA_8888_ColorType, alphaType=self.skia.kUnpremul_AlphaType,
                             colorSpace=self.skia.ColorSpace.MakeSRGB())


class CairoPath(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("data", ctypes.c_void_p), ("num_data", ctypes.c_int)]


class Cairo:
    """The system libcairo through ctypes: ARGB32 image surfaces, default (anti-aliased) quality.

    Paths are laid out as cairo_path_data_t arrays before timing (a header of two ints, then the
    points, 16 bytes each), so a timed fill is append_path + fill, all inside libcairo.
    """

    MOVE_TO, LINE_TO, CLOSE_PATH = 0, 1, 3

    def __init__(self, scene):
        import numpy

        name = ctypes.util.find_library("cairo") or "libcairo.so.2"
        lib = ctypes.CDLL(name)
        lib.cairo_image_surface_create.restype = ctypes.c_void_p
        lib.cairo_image_surface_create.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
        lib.cairo_create.restype = ctypes.c_void_p
        lib.cairo_create.argtypes = [ctypes.c_void_p]
        lib.cairo_destroy.argtypes = [ctypes.c_void_p]
        lib.cairo_set_source_rgba.argtypes = [ctypes.c_void_p] + [ctypes.c_double] * 4
        lib.cairo_set_fill_rule.argtypes = [ctypes.c_void_p, ctypes.c_int]
        lib.cairo_paint.argtypes = [ctypes.c_void_p]
        lib.cairo_append_path.argtypes = [ctypes.c_void_p, ctypes.POINTER(CairoPath)]
        lib.cairo_fill.argtypes = [ctypes.c_void_p]
        lib.cairo_surface_flush.argtypes = [ctypes.c_void_p]
        lib.cairo_image_surface_get_data.restype = ctypes.POINTER(ctypes.c_ubyte)
        lib.cairo_image_surface_get_data.argtypes = [ctypes.c_void_p]
        lib.cairo_image_surface_get_stride.argtypes = [ctypes.c_void_p]
        lib.cairo_version_string.restype = ctypes.c_char_p
        self.lib = lib
        self.scene = scene
        self.version = "cairo " + lib.cairo_version_string().decode()
        self.surfaces = [lib.cairo_image_surface_create(0, scene.out_width, scene.out_height)
                         for _ in scene.documents]
        self.keep = []
        self.documents = []
        for polygons in scene.documents:
            items = []
            for (r, g, b, a), points in polygons:
                xy = points.reshape(-1, 2)
                count = len(xy)
                # Elements: move header, point, (line header, point) * (count - 1), close header.
                data = numpy.zeros((2 * count + 1, 2), dtype=numpy.float64)
                headers = data.view(numpy.int32).reshape(-1, 4)
                headers[0:2 * count:2, 0] = self.LINE_TO
                headers[0:2 * count:2, 1] = 2
                headers[0, 0] = self.MOVE_TO
                headers[2 * count, 0] = self.CLOSE_PATH
                headers[2 * count, 1] = 1
                data[1:2 * count:2] = xy
                self.keep.append(data)
                path = CairoPath(0, data.ctypes.data, len(data))
                items.append(((r, g, b, a), path))
            self.documents.append(items)

    def run(self):
        lib = self.lib
        for surface, items in zip(self.surfaces, self.documents):
            cr = lib.cairo_create(surface)
            lib.cairo_set_fill_rule(cr, 0)  # CAIRO_FILL_RULE_WINDING
            lib.cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 1.0)
            lib.cairo_paint(cr)
            for (r, g, b, a), path in items:
                lib.cairo_set_source_rgba(cr, r, g, b, a)
                lib.cairo_append_path(cr, ctypes.byref(path))
                lib.cairo_fill(cr)
            lib.cairo_destroy(cr)
            lib.cairo_surface_flush(surface)

    def rgba(self, document):
        import numpy

        surface = self.surfaces[document]
        stride = self.lib.cairo_image_surface_get_stride(surface)
        height, width = self.scene.out_height, self.scene.out_width
        pointer = self.lib.cairo_image_surface_get_data(surface)
        raw = numpy.ctypeslib.as_array(pointer, shape=(height * stride,)).reshape(height, stride)
        return bgra_premultiplied_to_rgba(raw[:, :width * 4].reshape(height, width, 4))


def make_engine(name, scene):
    if name == "blend2d":
        return Blend2D(scene)
    if name == "skia-n32":
        return Skia(scene, linear=False)
    if name == "skia-f16":
        return Skia(scene, linear=True)
    if name == "cairo":
        return Cairo(scene)
    raise ValueError(f"unknown engine '{name}' (engines: {', '.join(ENGINES)})")


def timed_run(engine):
    start = time.perf_counter_ns()
    engine.run()
    return (time.perf_counter_ns() - start) / 1e6


def serve(name, path):
    """One engine on one file, driven line by line over stdin/stdout."""
    try:
        engine = make_engine(name, Scene(path))
    except Exception as error:  # a missing or broken peer is reported, not fatal
        print(f"unavailable: {type(error).__name__}: {error}".replace("\n", " ")[:300], flush=True)
        return
    print("ready " + engine.version, flush=True)
    for line in sys.stdin:
        command = line.strip()
        if command == "run":
            print(f"ms {timed_run(engine):.4f}", flush=True)
        elif command.startswith("write "):
            write_png(command[6:], engine.rgba(0))
            print("ok", flush=True)
        elif command == "quit":
            break
        else:
            print(f"error: unknown command '{command}'", flush=True)


def standalone(arguments):
    engines, runs, png_dir, files = [], 5, None, []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        if argument in ("--engine", "--runs", "--png-dir") and index + 1 >= len(arguments):
            sys.exit(f"fill.py: {argument} needs a value")
        if argument == "--engine":
            engines.append(arguments[index + 1])
            index += 1
        elif argument == "--runs":
            runs = int(arguments[index + 1])
            index += 1
        elif argument == "--png-dir":
            png_dir = arguments[index + 1]
            index += 1
        elif argument in ("-h", "--help"):
            print(__doc__)
            return
        else:
            files.append(argument)
        index += 1
    if len(files) != 1:
        sys.exit("usage: fill.py FILE [--engine NAME]... [--runs N] [--png-dir DIR]  (see --help)")
    scene = Scene(files[0])
    report = {"file": files[0], "width": scene.width, "height": scene.height, "out_width": scene.out_width,
              "out_height": scene.out_height, "documents": scene.document_count, "results": []}
    ready = {}
    for name in engines or ENGINES:
        try:
            ready[name] = make_engine(name, scene)
        except Exception as error:
            report["results"].append({"engine": name, "unavailable": f"{type(error).__name__}: {error}"[:300]})
    samples = {name: [] for name in ready}
    for run in range(runs + 1):  # run 0 is the warm-up
        for name, engine in ready.items():
            elapsed = timed_run(engine)
            if run > 0:
                samples[name].append(elapsed)
    for name, engine in ready.items():
        values = samples[name]
        report["results"].append({"engine": name, "version": engine.version, "mode": "fill", "threads": 1,
                                  "median_ms": statistics.median(values), "min_ms": min(values),
                                  "max_ms": max(values)})
        if png_dir:
            os.makedirs(png_dir, exist_ok=True)
            write_png(os.path.join(png_dir, name + ".png"), engine.rgba(0))
    print(json.dumps(report, indent=2))


def compare(first, second):
    import skia

    def load(path):
        image = skia.Image.open(path)
        return image.toarray(colorType=skia.kRGBA_8888_ColorType)[..., :3].astype(int)

    a, b = load(first), load(second)
    if a.shape != b.shape:
        sys.exit(f"fill.py: sizes differ: {a.shape[1]}x{a.shape[0]} and {b.shape[1]}x{b.shape[0]}")
    difference = abs(a - b).max(axis=2)
    print(json.dumps({"a": first, "b": second, "max": int(difference.max()),
                      "mean": round(float(difference.mean()), 4), "pixels": int(difference.size),
                      "over_2": int((difference > 2).sum()), "over_16": int((difference > 16).sum())}))


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--serve":
        serve(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        standalone(sys.argv[1:])


if __name__ == "__main__":
    main()
