#include <gtest/gtest.h>
TEST(convert, placeholder) { SUCCEED(); }
