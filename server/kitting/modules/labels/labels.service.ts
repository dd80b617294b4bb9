/** Saved label templates (size and shown fields), keyed by id. */
export const LABEL_TEMPLATES = 'labelTemplates';
/** The print log: one entry per print job, failures included. */
export const LABEL_LOG = 'labelLog';
