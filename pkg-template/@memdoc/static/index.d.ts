/** The static table distilled from all-MiniLM-L6-v2 (256 int8 values a token), next to this module. */
export const table: URL;
