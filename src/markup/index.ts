export type {
  Attribute,
  DocumentItem,
  MarkupDocument,
  Node,
  NodeItem,
  Position,
  Section,
  SectionItem,
  Sentence,
  TextRun,
  UnknownElement,
} from './types.js';
export { MarkupError, type MarkupErrorCode } from './errors.js';
export { decodeMarkup } from './decode.js';
export { analyzeMarkup, checkMarkup, parseMarkup, type Analysis, type ParseOptions } from './parse.js';
export { serializeMarkup } from './serialize.js';
export { escapeText, escapeValue, foldSpace, splitMeta } from './text.js';
export { attributeValue, createNode, createSection, documentNodes, type NodeInit } from './model.js';
