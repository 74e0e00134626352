/** Borrower search (docs/product.md "Borrowers"): rows a page. */
export const BORROWER_PAGE_SIZE = 25;
