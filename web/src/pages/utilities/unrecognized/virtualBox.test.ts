import { afterEach, describe, expect, it, vi } from 'vitest';
import { observeBoxAfterLayout, scrollBox, type BoxVirtualizer } from './virtualBox';

/** A scroll box and a virtualizer attached to it, with what the library's scroll reads from its options. */
function attached() {
  const box = { scrollTo: vi.fn(), getBoundingClientRect: vi.fn(() => ({ width: 800.4, height: 451.6 })) };
  const instance = { scrollElement: box, options: { horizontal: false, isRtl: false } } as unknown as BoxVirtualizer;
  return { box, instance };
}

describe('scrollBox', () => {
  it("leaves out a new box's first write of the top, where it already is, and passes every later write", () => {
    const { box, instance } = attached();
    scrollBox(0, {}, instance);
    expect(box.scrollTo).not.toHaveBeenCalled();
    scrollBox(0, {}, instance);
    scrollBox(520, { behavior: 'auto' }, instance);
    expect(box.scrollTo.mock.calls).toEqual([[{ top: 0, behavior: undefined }], [{ top: 520, behavior: 'auto' }]]);
  });

  it('writes a first offset other than the top', () => {
    const { box, instance } = attached();
    scrollBox(0, { adjustments: 52 }, instance);
    expect(box.scrollTo).toHaveBeenCalledWith({ top: 52, behavior: undefined });
  });
});

describe('observeBoxAfterLayout', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('measures the box only when the ResizeObserver reports it, never on attaching', () => {
    const observers: Array<{ callback: () => void; observe: ReturnType<typeof vi.fn>; disconnect: ReturnType<typeof vi.fn> }> = [];
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe = vi.fn();
        disconnect = vi.fn();
        constructor(public callback: () => void) {
          observers.push(this);
        }
      },
    );
    const { box, instance } = attached();
    const report = vi.fn();
    const stop = observeBoxAfterLayout(instance, report);
    expect(box.getBoundingClientRect).not.toHaveBeenCalled();
    expect(report).not.toHaveBeenCalled();
    expect(observers[0]!.observe).toHaveBeenCalledWith(box);

    observers[0]!.callback();
    expect(report).toHaveBeenCalledWith({ width: 800, height: 452 });
    stop?.();
    expect(observers[0]!.disconnect).toHaveBeenCalled();
  });
});
