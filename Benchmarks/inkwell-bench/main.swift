import InkwellModel
import InkwellRender

#if canImport(Glibc)
  import Glibc
#endif

// Temporary visual check.
func write(_ image: RGBA8Image, _ path: String) {
  let f = fopen(path, "wb")!
  image.pixels.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, f) }
  fclose(f)
}

var strokes: [Stroke] = []
// straight line with pressure ramp
var pts: [StrokePoint] = []
for i in 0...40 {
  let x = Float(20 + i * 6)
  pts.append(
    StrokePoint(location: Point(x: x, y: 40), size: Size(width: 16, height: 16), force: Float(i) / 40))
}
strokes.append(Stroke(ink: Ink(type: .pen, color: .black, width: 16), path: StrokePath(controlPoints: pts)))
// loop translucent
pts = []
for i in 0...80 {
  let t = Float(i) / 80 * 2 * .pi * 1.2
  pts.append(
    StrokePoint(
      location: Point(x: 150 + 60 * FloatMath.cos(t) + Float(i) * 1.2, y: 150 + 60 * FloatMath.sin(2 * t)),
      size: Size(width: 14, height: 14), force: 1))
}
strokes.append(
  Stroke(
    ink: Ink(type: .pen, color: Color(red: 0.1, green: 0.3, blue: 0.9, alpha: 0.5), width: 14),
    path: StrokePath(controlPoints: pts)))
// zigzag sharp
pts = []
for i in 0...8 {
  pts.append(
    StrokePoint(
      location: Point(x: Float(30 + i * 30), y: i % 2 == 0 ? 240 : 280), size: Size(width: 10, height: 10)))
}
strokes.append(
  Stroke(
    ink: Ink(type: .pen, color: Color(red: 0.8, green: 0.1, blue: 0.1), width: 10),
    path: StrokePath(controlPoints: pts)))
// dot
strokes.append(
  Stroke(
    ink: Ink(type: .pen, color: .black, width: 20),
    path: StrokePath(controlPoints: [
      StrokePoint(location: Point(x: 280, y: 60), size: Size(width: 20, height: 20))
    ])))
let doc = Drawing(strokes: strokes)
let vp = Viewport(region: Rect(x: 0, y: 0, width: 320, height: 320), width: 320, height: 320)
let img = Renderer(threads: 2).render(doc, viewport: vp, background: .white)
write(img, "/tmp/scratch/a.rgba")
let img1 = Renderer(threads: 1).render(doc, viewport: vp, background: .white)
print(img == img1)
