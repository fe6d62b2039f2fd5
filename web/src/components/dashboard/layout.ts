/** The widgets in the user's order: known ids from `saved` first, then any widget the saved order does not mention. */
export function orderWidgets<T extends { id: string }>(widgets: T[], saved: string[] | null): T[] {
  if (!saved) return widgets;
  const byId = new Map(widgets.map((widget) => [widget.id, widget]));
  const ordered = saved.map((id) => byId.get(id)).filter((widget): widget is T => !!widget);
  return [...ordered, ...widgets.filter((widget) => !saved.includes(widget.id))];
}

/** `order` with `id` moved to where `targetId` is. */
export function moveWidget(order: string[], id: string, targetId: string): string[] {
  if (id === targetId) return order;
  const without = order.filter((item) => item !== id);
  const index = without.indexOf(targetId);
  if (index < 0) return order;
  const movingDown = order.indexOf(id) < order.indexOf(targetId);
  without.splice(movingDown ? index + 1 : index, 0, id);
  return without;
}
