// swift-tools-version:6.0
import Foundation
import PackageDescription

// Library targets carry no unsafe build flags, so Inkwell can be used as a versioned dependency.

/// The folder holding libomp.so for the OpenMP scheduler benchmark, or nil to build its loops
/// serially. The toolchain's clang (21) emits calls that need libomp 19 or later, so Debian's
/// `libomp-dev` (LLVM 14) is not enough: scripts/install-dependencies installs `libomp-19-dev`.
/// `INKWELL_LIBOMP_DIR` names another folder; `INKWELL_LIBOMP_DIR=none` turns OpenMP off.
let libompDirectory: String? = {
  if let dir = ProcessInfo.processInfo.environment["INKWELL_LIBOMP_DIR"] {
    return dir == "none" ? nil : dir
  }
  return (19...30).reversed().map { "/usr/lib/llvm-\($0)/lib" }
    .first { FileManager.default.fileExists(atPath: $0 + "/libomp.so") }
}()
let package = Package(
  name: "Inkwell",
  products: [
    .library(name: "Inkwell", targets: ["Inkwell"]),
    .executable(name: "inkwell", targets: ["inkwell"]),
    .executable(name: "inkwell-bench", targets: ["inkwell-bench"]),
    .executable(name: "format-bench", targets: ["format-bench"]),
    .executable(name: "inkwell-omp-bench", targets: ["inkwell-omp-bench"]),
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
    // Where a parallel render's threads run (processor and affinity, which Glibc's module lacks).
    .target(name: "CInkwellThreads"),

    .target(name: "InkwellRender", dependencies: ["InkwellModel", "InkwellKernels", "CInkwellThreads"]),

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
    .target(name: "InkwellPNG", dependencies: ["CInkwellPNG", "CInkwellThreads"]),

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

    // Unnamed files for the atomic writer (Linux's O_TMPFILE, which Swift's Glibc lacks).
    .target(name: "CInkwellOutput"),

    // The public surface: load, render, write.
    .target(
      name: "Inkwell",
      dependencies: [
        "InkwellModel", "InkwellRender", "InkwellFormat", "InkwellPNG", "InkwellEXR", "CInkwellOutput",
      ]
    ),

    // The command line; its C shim sets what Glibc's Swift module does not expose (mallopt).
    .target(name: "CInkwellCLI"),
    .executableTarget(name: "inkwell", dependencies: ["Inkwell", "CInkwellCLI"]),
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

    // OpenMP tile scheduler, for the benchmark only: -fopenmp is an unsafe flag, so no target the
    // Inkwell library product contains may depend on this one.
    .target(
      name: "InkwellOpenMP",
      path: "Benchmarks/openmp-scheduler",
      cSettings: libompDirectory == nil ? [] : [.unsafeFlags(["-fopenmp"])],
      linkerSettings: libompDirectory.map { dir in
        [.linkedLibrary("omp"), .unsafeFlags(["-L\(dir)", "-Xlinker", "-rpath", "-Xlinker", dir])]
      } ?? []
    ),
    .executableTarget(
      name: "inkwell-omp-bench",
      dependencies: ["Inkwell", "InkwellOpenMP"],
      path: "Benchmarks/omp-bench"
    ),

    .testTarget(
      name: "InkwellTests",
      dependencies: [
        "Inkwell", "InkwellModel", "InkwellRender", "InkwellFormat", "InkwellPNG", "InkwellKernels",
        "InkwellEXR", "inkwell", "CInkwellOutput", "CInkwellThreads",
      ],
      exclude: ["Malformed"]
    ),
  ]
)
