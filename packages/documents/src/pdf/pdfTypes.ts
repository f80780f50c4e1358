/** One run of text of a PDF page, in PDF user space (origin bottom left, y up). */
export interface PdfTextItem {
  text: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
}

/** Items on one baseline that sit close together: a line of one column. */
export interface PdfLine {
  text: string;
  x0: number;
  x1: number;
  y: number;
  fontSize: number;
}

/** The lines of one page with the page box. */
export interface PdfPageLines {
  number: number;
  width: number;
  height: number;
  lines: PdfLine[];
}
