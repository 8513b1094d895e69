// Shared by the reliability tests: the message of the error a call throws, and a fresh folder.
#ifndef RETARGET_TESTS_RELIABILITY_COMMON_HPP
#define RETARGET_TESTS_RELIABILITY_COMMON_HPP

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/core/error.hpp>
#include <string>
#include <vector>

#include "support/error_of.hpp"

namespace reliability {

using support::error_of;

inline std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// A fresh folder per test, removed afterwards.
class scratch_folder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("retarget-reliability-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // The names in the folder, sorted.
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir_))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  std::filesystem::path dir_;
};

}  // namespace reliability

#endif  // RETARGET_TESTS_RELIABILITY_COMMON_HPP
