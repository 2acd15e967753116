// Elementary functions without Foundation: the model, geometry and raster layers stay free of it.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#elseif canImport(ucrt)
  import ucrt
#endif

@usableFromInline func _sin(_ x: Float) -> Float { sinf(x) }
@usableFromInline func _cos(_ x: Float) -> Float { cosf(x) }

/// Float math used across the pipeline, collected so the rest of the code needs no C import.
public enum FloatMath {
  @inlinable public static func sin(_ x: Float) -> Float { _sin(x) }
  @inlinable public static func cos(_ x: Float) -> Float { _cos(x) }
  public static func atan2(_ y: Float, _ x: Float) -> Float { atan2f(y, x) }
  public static func pow(_ x: Float, _ y: Float) -> Float { powf(x, y) }
  public static func acos(_ x: Float) -> Float { acosf(x) }
}
