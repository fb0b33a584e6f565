/** The price key of a row without a known price: above every price, so it sorts last. */
export const NO_PRICE = 0xffffffff;
