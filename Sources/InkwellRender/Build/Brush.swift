// Brushes: how one stroke becomes primitives. Every ink, built in or an app's own, is a `Brush`;
// `InkCatalog` says which brush draws which stroke, and `SceneBuilder` asks it stroke by stroke.
//
// A brush returns primitives in pixel space, in paint order, without the stroke's mask: the scene
// builder clips every primitive a brush returns by the stroke's mask, so erasers and clip paths
// work the same for every ink. A brush's outlines are non-zero unions (each primitive composited
// once), so an ink darkens where it crosses itself only where the brush returns overlapping
// primitives on purpose (watercolor's rim over its wash).

import InkwellModel

/// Turns a stroke into primitives for one view.
public protocol Brush: Sendable {
  /// The primitives `stroke` paints, in pixel space, for the map `view` from drawing coordinates to
  /// pixels (the stroke's own transform comes first). Empty when it draws nothing.
  func primitives(for stroke: Stroke, view: AffineTransform) -> [Primitive]

  /// Appends the primitives `stroke` paints to `primitives`, as `primitives(for:view:)` returns
  /// them. The scene builder calls this; the default appends `primitives(for:view:)`'s array. A
  /// brush that paints one primitive a stroke can append it directly and spare that array (an
  /// allocation, a copy and a release a stroke: 3 % of a thumbnail page's build).
  func appendPrimitives(for stroke: Stroke, view: AffineTransform, to primitives: inout [Primitive])
}

extension Brush {
  public func appendPrimitives(for stroke: Stroke, view: AffineTransform, to primitives: inout [Primitive]) {
    primitives.append(contentsOf: self.primitives(for: stroke, view: view))
  }
}

/// Which brush draws which stroke: a brush per ink type (the built-in inks unless replaced), and
/// optionally a chooser that picks an app's own brush for particular strokes.
public struct InkCatalog: Sendable {
  /// One brush an ink type, at the type's `slot`: looked up for every stroke, where a dictionary
  /// hashed the type's string name (a few hundred instructions a stroke).
  private var brushes: [any Brush]
  /// Whether the pen's slot still holds the built-in `PenInk`, which the scene builder then calls
  /// directly (no existential copy, no dynamic call: a thumbnail page's strokes are nearly all pen).
  private(set) var builtInPen = true
  /// Consulted first for every stroke; `nil`, or a `nil` answer, falls back to the ink type's brush.
  public var chooser: (@Sendable (Stroke) -> (any Brush)?)?

  /// The built-in inks.
  public init() {
    // In `slot` order (a test checks each type's brush).
    brushes = [
      PenInk(), PencilInk(), MarkerInk(), MonolineInk(), FountainPenInk(), WatercolorInk(), CrayonInk(),
      ReedInk(),
    ]
  }

  /// `type`'s place in `brushes`.
  private static func slot(_ type: InkType) -> Int {
    switch type {
    case .pen: return 0
    case .pencil: return 1
    case .marker: return 2
    case .monoline: return 3
    case .fountainPen: return 4
    case .watercolor: return 5
    case .crayon: return 6
    case .reed: return 7
    }
  }

  /// The built-in inks.
  public static let standard = InkCatalog()

  /// Draws every stroke of ink type `type` with `brush` from now on.
  public mutating func register(_ brush: any Brush, for type: InkType) {
    brushes[Self.slot(type)] = brush
    if type == .pen { builtInPen = false }
  }

  /// The brush that draws `stroke`.
  public func brush(for stroke: Stroke) -> any Brush {
    if let chooser, let brush = chooser(stroke) { return brush }
    return brushes[Self.slot(stroke.ink.type)]
  }
}
