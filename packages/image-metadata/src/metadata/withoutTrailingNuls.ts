/** `text` without the NUL padding at its end (a loop: `/\0+$/` rescans every run of NULs, quadratic). */
export function withoutTrailingNuls(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0) end -= 1;
  return text.slice(0, end);
}
