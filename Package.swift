// swift-tools-version:6.0
import PackageDescription

// Library targets carry no unsafe build flags, so Inkwell can be used as a versioned dependency.
let package = Package(
  name: "Inkwell",
  products: [
    .library(name: "Inkwell", targets: ["Inkwell"]),
    .executable(name: "inkwell", targets: ["inkwell"]),
    .executable(name: "inkwell-bench", targets: ["inkwell-bench"]),
    .executable(name: "format-bench", targets: ["format-bench"]),
  ],
  targets: [
    // Model: PencilKit-shaped value types. Knows nothing of pixels or files.
    .target(name: "InkwellModel"),

    // Per-pixel kernels in C: coverage accumulation, compositing, resolve.
    .target(
      name: "InkwellKernels",
      path: "shaders-cpu",
      cSettings: [.headerSearchPath("include")]
    ),

    // Build → bin → raster → resolve. Knows nothing of file formats.
    .target(name: "InkwellRender", dependencies: ["InkwellModel", "InkwellKernels"]),

    // zlib through the system library (deflate for the binary format, gzip for importers).
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),

    // Document formats: native JSON and binary, importers.
    .target(name: "InkwellFormat", dependencies: ["InkwellModel", "CZlib"]),

    // PNG through the system libpng; its errors become Swift errors.
    .systemLibrary(
      name: "CLibPNG",
      pkgConfig: "libpng",
      providers: [.apt(["libpng-dev"])]
    ),
    .target(
      name: "CInkwellPNG",
      dependencies: ["CLibPNG"],
      linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]
    ),
    .target(name: "InkwellPNG", dependencies: ["CInkwellPNG"]),

    // OpenEXR through the system library's core C API (OpenEXRCore); no C++ in our code.
    // Headers are included as <OpenEXR/…>, so no pkg-config flags are needed.
    .systemLibrary(
      name: "COpenEXR",
      providers: [.apt(["libopenexr-dev"])]
    ),
    .target(
      name: "CInkwellEXR",
      dependencies: ["COpenEXR"],
      linkerSettings: [.linkedLibrary("OpenEXRCore-3_1")]
    ),
    .target(name: "InkwellEXR", dependencies: ["CInkwellEXR"]),

    // The public surface: load, render, write.
    .target(
      name: "Inkwell",
      dependencies: ["InkwellModel", "InkwellRender", "InkwellFormat", "InkwellPNG", "InkwellEXR"]
    ),

    .executableTarget(name: "inkwell", dependencies: ["Inkwell"]),
    .executableTarget(
      name: "inkwell-bench",
      // CLibPNG only to report the libpng version the benchmark ran against.
      dependencies: ["Inkwell", "CLibPNG"],
      path: "Benchmarks/inkwell-bench"
    ),
    .executableTarget(
      name: "format-bench",
      dependencies: ["Inkwell"],
      path: "Benchmarks/format-bench"
    ),

    .testTarget(
      name: "InkwellTests",
      dependencies: [
        "Inkwell", "InkwellModel", "InkwellRender", "InkwellFormat", "InkwellPNG", "InkwellKernels",
        "InkwellEXR", "inkwell",
      ],
      exclude: ["Malformed"]
    ),
  ]
)
