import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { toast } from 'react-toastify';
import { Modal, ModalFooter } from '@/components/Modal';

/** The square the user frames the picture in, in CSS pixels. */
export const CROP_SIZE = 256;
/** The server accepts avatars up to 512×512. */
export const MAX_AVATAR_SIDE = 512;
export const MIN_SCALE = 0.01;
export const MAX_SCALE = 2;

/** Side of the stored avatar: the framed part of the picture at its own resolution, but never above 512 px. */
export function outputSide(scale: number): number {
  return Math.max(1, Math.min(MAX_AVATAR_SIDE, Math.round(CROP_SIZE / scale)));
}

/** The scale at which the picture's shorter side just fills the frame, kept inside the slider's range. */
export function fittingScale(width: number, height: number): number {
  const scale = CROP_SIZE / Math.max(1, Math.min(width, height));
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.round(scale * 100) / 100));
}

interface Offset {
  x: number;
  y: number;
}

function draw(canvas: HTMLCanvasElement, image: HTMLImageElement, scale: number, offset: Offset, side: number) {
  const context = canvas.getContext('2d');
  if (!context) return;
  const ratio = side / CROP_SIZE;
  context.clearRect(0, 0, side, side);
  context.drawImage(image, offset.x * ratio, offset.y * ratio, image.naturalWidth * scale * ratio, image.naturalHeight * scale * ratio);
}

/**
 * Crops a picked picture to a square avatar: drag to move, slider to zoom. Saves a WebP data URL of at most 512 px.
 * A file the browser cannot decode closes the editor with 'Image load failed!'.
 */
export function AvatarEditor({ file, onClose, onSave }: { file: File | null; onClose: () => void; onSave: (dataUrl: string) => void }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  const [scale, setScale] = useState(1);
  const [offset, setOffset] = useState<Offset>({ x: 0, y: 0 });
  const drag = useRef<{ start: Offset; origin: Offset } | null>(null);

  // A new file (or a new onClose, which restarts the load below) drops the shown image until the new one has loaded.
  const [loadFor, setLoadFor] = useState<{ file: File | null; onClose: () => void } | null>(null);
  if (loadFor?.file !== file || loadFor.onClose !== onClose) {
    setLoadFor({ file, onClose });
    setImage(null);
  }
  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    const element = new Image();
    element.onload = () => {
      const fit = fittingScale(element.naturalWidth, element.naturalHeight);
      setScale(fit);
      setOffset({ x: (CROP_SIZE - element.naturalWidth * fit) / 2, y: (CROP_SIZE - element.naturalHeight * fit) / 2 });
      setImage(element);
    };
    element.onerror = () => {
      toast.error('Image load failed!');
      onClose();
    };
    element.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file, onClose]);

  useEffect(() => {
    if (image && canvasRef.current) draw(canvasRef.current, image, scale, offset, CROP_SIZE);
  }, [image, scale, offset]);

  const zoom = (next: number) => {
    // Zoom around the frame's centre so the framed part stays put.
    const centre = CROP_SIZE / 2;
    setOffset((o) => ({ x: centre - ((centre - o.x) * next) / scale, y: centre - ((centre - o.y) * next) / scale }));
    setScale(next);
  };
  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { start: { x: event.clientX, y: event.clientY }, origin: offset };
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const current = drag.current;
    if (!current) return;
    setOffset({ x: current.origin.x + event.clientX - current.start.x, y: current.origin.y + event.clientY - current.start.y });
  };
  const save = () => {
    if (!image) return;
    const side = outputSide(scale);
    const output = document.createElement('canvas');
    output.width = side;
    output.height = side;
    draw(output, image, scale, offset, side);
    onSave(output.toDataURL('image/webp', 0.9));
  };

  return (
    <Modal
      open={!!file}
      onClose={onClose}
      title="Edit Avatar"
      size="sm"
      footer={<ModalFooter onCancel={onClose} action="Save" onAction={save} disabled={!image} />}
    >
      <canvas
        ref={canvasRef}
        width={CROP_SIZE}
        height={CROP_SIZE}
        aria-label="Avatar preview"
        className="mx-auto cursor-move touch-none rounded-full bg-background-alt"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
      />
      <label className="flex items-center gap-3">
        <span className="shrink-0">Zoom</span>
        <input
          type="range"
          aria-label="Zoom"
          min={MIN_SCALE}
          max={MAX_SCALE}
          step={0.01}
          value={scale}
          disabled={!image}
          onChange={(event) => zoom(Number(event.target.value))}
          className="w-full accent-[var(--color-primary)]"
        />
      </label>
    </Modal>
  );
}
