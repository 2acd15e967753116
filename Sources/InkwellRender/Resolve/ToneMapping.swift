// Resolve: tone mapping from the content's exposure range to the output's headroom.
//
// Inputs are linear light relative to SDR white (1.0 = paper white), after compositing. The content
// peak E is the largest linear exposure any ink of the render uses (after the document's cap), and
// the target headroom H is the output's peak in the same units: 1 for SDR files and displays,
// 2…16 for EDR, about 4.9 for a 1000-nit PQ or HLG master (1000 / 203).
//
// The rules (issue 5):
//   • E ≤ H: nothing changes (a final guard still brings any stray pixel above H down to H, as
//     below; only colors outside the output's gamut after a primaries change can reach it).
//   • Otherwise the largest channel m of each pixel is mapped through a curve f that is the identity
//     up to a knee k ≥ 1 and compresses [k, E] smoothly and monotonically onto [k, H]; all three
//     channels are scaled by f(m)/m, so channel ratios, and with them hue, are kept. SDR content
//     (m ≤ 1 ≤ k) is never dimmed and SDR white stays SDR white. Per-channel clipping, which turns
//     an HDR red orange and an HDR blue purple, is never used.
//   • Compressed colors then roll toward white by how much they lost ("path to white"):
//     c' = c + (f(m) − c)·t with t = strength·(1 − f(m)/m), so a very bright ink reads as brighter
//     than its SDR base and not as the same flat patch. The largest channel stays f(m).
//
// Where the knee sits:
//   • clip: k = H (no compression below H; everything above is scaled down to H; no roll to white).
//   • extended Reinhard: k = (1 + H)/2, halfway between SDR white and the output peak; above it
//     f(m) = k + V·h(x), x = (m − k)/V, V = H − k, h(x) = x(1 + x/W²)/(1 + x), W = (E − k)/V.
//     h(0) = 0 and h'(0) = 1 (the curve joins the identity with matching slope), h(W) = 1 (E lands
//     on H), and h' > 0 everywhere (monotone).
//   • BT.2390 EETF: computed in PQ with SDR white at 203 nits, normalized to the source peak: the
//     standard knee KS = 1.5·maxLum − 0.5, raised to PQ(SDR white) when that is higher (so the knee
//     is ≥ 1 in linear terms), then the Hermite spline to maxLum. When the knee had to be raised the
//     spline's start tangent is reduced to 3·(maxLum − KS) (the Fritsch–Carlson bound), keeping it
//     monotone at the cost of a small kink.
// With H = 1 every knee is at 1, so the three curves coincide on the largest channel (it becomes 1)
// and differ only in the roll toward white, which clip does not apply.
//
// The default, extended Reinhard, was chosen from the sweeps in docs/color.md (curves for
// E ∈ {4, 8, 16} onto H ∈ {1, 2, 4}, and strokes rendered each way):
//   • it keeps gradation up to the peak: its slope at E is 2/(W(1+W)) > 0, while BT.2390 is flat
//     (slope 0) at the top, so antialiased edges and soft inks near E all land at nearly H and their
//     bright end looks clipped;
//   • its knee is predictable, (1 + H)/2, independent of E; BT.2390's knee moves with E/H and for
//     E/H ≥ 4 hits the SDR-white floor, where the spline loses its C¹ join;
//   • it needs no PQ round trip per pixel (BT.2390 costs two pow calls in double per pixel).
// BT.2390 remains the better choice for mastering PQ to a reference display and is offered for it.
// The roll-to-white strength 0.1 was picked by eye from strengths 0.05…0.3: at exposure 4 on SDR a
// saturated red moves 7.5% of the way to white (#d01010 → #ff5252 rather than #d01010's own red),
// enough to read as brighter than the SDR ink; at 0.25 the same stroke already reads as pink.

import InkwellKernels
import InkwellModel

/// The curve that compresses content above the knee.
public enum ToneMapper: String, CaseIterable, Hashable, Sendable {
  /// Scale the largest channel down to the headroom; nothing below it changes.
  case clip
  /// Extended Reinhard above a knee at (1 + H)/2; the default.
  case extendedReinhard = "reinhard"
  /// The ITU-R BT.2390 EETF, in PQ, above its standard knee (raised to SDR white at least).
  case bt2390

  public static let `default`: ToneMapper = .extendedReinhard
}

/// How linear content with peak `contentPeak` is fitted to an output with peak `headroom` (both
/// linear, 1 = SDR white).
public struct ToneMapping: Hashable, Sendable {
  public var mapper: ToneMapper
  /// E: the largest linear value the content is meant to reach (its largest exposure).
  public var contentPeak: Float
  /// H: the output's peak.
  public var headroom: Float
  /// How far compressed colors roll toward white; 0 keeps channel ratios exactly.
  public var pathToWhite: Float
  /// Nits of linear 1.0, used by the BT.2390 curve's PQ domain (BT.2408: 203).
  public var sdrWhiteNits: Float

  public static let defaultPathToWhite: Float = 0.1

  public init(
    mapper: ToneMapper = .default, contentPeak: Float, headroom: Float,
    pathToWhite: Float = ToneMapping.defaultPathToWhite, sdrWhiteNits: Float = 203
  ) {
    self.mapper = mapper
    self.contentPeak = contentPeak
    self.headroom = headroom
    self.pathToWhite = pathToWhite
    self.sdrWhiteNits = sdrWhiteNits
  }

  /// Output headroom used in place of "unbounded" (a linear EXR): far above any ink.
  public static let unbounded: Float = 1e30

  var effectiveHeadroom: Float {
    if headroom == .infinity { return Self.unbounded }
    return headroom.isFinite && headroom >= 1 ? headroom : 1
  }
  var effectivePeak: Float { contentPeak.isFinite && contentPeak > 1 ? contentPeak : 1 }

  /// Whether the content fits the output, so that only the final guard applies.
  public var isIdentity: Bool { effectivePeak <= effectiveHeadroom }

  /// Where the curve starts to compress, linear (≥ 1). For an identity mapping, the headroom.
  public var knee: Float {
    let h = effectiveHeadroom
    if isIdentity { return h }
    switch mapper {
    case .clip: return h
    case .extendedReinhard: return (1 + h) / 2
    case .bt2390:
      let p = eetf()
      let kneePQ = Double(p.knee) * Double(p.sourcePQ)
      let linear = Float(ResolveReference.pqDecode(kneePQ) * 10000 / Double(sdrWhiteNits))
      // The floor is SDR white exactly, whatever the PQ round trip's last bits say.
      return Swift.min(h, Swift.max(1, linear))
    }
  }

  /// The BT.2390 parameters: knee start and target, normalized to the source peak's PQ code, the
  /// start-tangent scale, and the source peak's PQ code.
  func eetf() -> (knee: Float, target: Float, tangent: Float, sourcePQ: Float) {
    let white = Double(sdrWhiteNits) / 10000
    let source = ResolveReference.pqEncode(Double(effectivePeak) * white)
    let target = ResolveReference.pqEncode(Double(effectiveHeadroom) * white) / source
    let floor = ResolveReference.pqEncode(white) / source
    let ks = Swift.max(1.5 * target - 0.5, floor)
    let tangent = ks < 1 ? Swift.min(1, 3 * (target - ks) / (1 - ks)) : 1
    return (Float(ks), Float(target), Float(Swift.max(0, tangent)), Float(source))
  }
}

/// The transfer function of an output.
public enum TransferFunction: String, CaseIterable, Hashable, Sendable {
  /// IEC 61966-2-1 (also Display P3's).
  case sRGB = "srgb"
  /// SMPTE ST 2084 / BT.2100 PQ; linear 1.0 is SDR white at 203 nits (BT.2408).
  case pq
  /// BT.2100 HLG, for a display with a nominal peak of 1000 nits (SDR white 203 nits, signal 0.75).
  case hlg
  /// Linear light, 1.0 = SDR white.
  case linear

  var kernelValue: Int32 {
    switch self {
    case .sRGB: return Int32(INKWELL_TRANSFER_SRGB.rawValue)
    case .pq: return Int32(INKWELL_TRANSFER_PQ.rawValue)
    case .hlg: return Int32(INKWELL_TRANSFER_HLG.rawValue)
    case .linear: return Int32(INKWELL_TRANSFER_LINEAR.rawValue)
    }
  }
}

/// Everything the resolve stage needs: output primaries, transfer function and tone mapping.
public struct ResolveSettings: Hashable, Sendable {
  public var colorSpace: ColorSpace
  public var transfer: TransferFunction
  public var toneMapping: ToneMapping
  /// HLG's nominal display peak (BT.2100 reference OOTF at 1000 nits).
  public var hlgPeakNits: Float = 1000

  public init(colorSpace: ColorSpace, transfer: TransferFunction, toneMapping: ToneMapping) {
    self.colorSpace = colorSpace
    self.transfer = transfer
    self.toneMapping = toneMapping
  }

  /// The kernels' parameter block.
  public var kernelParameters: inkwell_resolve_params {
    var p = inkwell_resolve_params()
    let m = ColorSpaceConversion.matrix(from: .sRGB, to: colorSpace).m
    p.matrix = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    let t = toneMapping
    let curve: inkwell_tone_curve
    if t.isIdentity {
      curve = INKWELL_TONE_NONE
    } else {
      switch t.mapper {
      case .clip: curve = INKWELL_TONE_CLIP
      case .extendedReinhard: curve = INKWELL_TONE_REINHARD
      case .bt2390: curve = INKWELL_TONE_BT2390
      }
    }
    p.curve = Int32(curve.rawValue)
    p.peak = t.effectivePeak
    p.headroom = t.effectiveHeadroom
    p.knee = t.knee
    if curve == INKWELL_TONE_REINHARD {
      p.reinhard_white = (p.peak - p.knee) / (p.headroom - p.knee)
    }
    if curve == INKWELL_TONE_BT2390 {
      let e = t.eetf()
      p.eetf_knee = e.knee
      p.eetf_target = e.target
      p.eetf_tangent = e.tangent
      p.eetf_source_pq = e.sourcePQ
    }
    p.path_to_white = t.pathToWhite
    p.transfer = transfer.kernelValue
    p.sdr_white_nits = t.sdrWhiteNits
    p.hlg_peak_nits = hlgPeakNits
    let luma = ColorSpaceConversion.luminanceWeights(colorSpace)
    p.luma = (luma.0, luma.1, luma.2)
    return p
  }
}
